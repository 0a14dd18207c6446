/** Business constants and timings of SPEC §9. */
export const timings = {
  publishPollMs: 2000,
  publishPollMaxTries: 50,
  purchaseCompletePollMs: 750,
  purchaseCompleteMaxTicks: 500,
  countdownTickMs: 1000,
  carouselAutoScrollMs: 4000,
  copyToastMs: 3500,
  savedToastMs: 4000,
  hashNavigationDelayMs: 500,
  resizeDebounceMs: 100,
  imageJobPollMs: 1000,
  imageJobTimeoutMs: 10_000,
} as const;

/** Settings tabs become buttons at this width or less (SPEC §2). */
export const SETTINGS_BREAKPOINT_PX = 680;
/** Support address for account deletion requests. */
export const SUPPORT_EMAIL = 'support@vitrine.market';
