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
  /** Back from the identity provider, the KYC status is read again this often, this many times. */
  kycDecisionPollMs: 2000,
  kycDecisionMaxPolls: 30,
} as const;

/** A countdown shows a day count instead of hours:minutes:seconds above this many hours (SPEC §9). */
export const COUNTDOWN_DAYS_ABOVE_HOURS = 99;
/** A carousel swipe changes the slide once it has moved this fraction of the slide width (SPEC §9). */
export const CAROUSEL_SWIPE_THRESHOLD = 0.1;

/** Settings tabs become buttons at this width or less (SPEC §2). */
export const SETTINGS_BREAKPOINT_PX = 680;
/** Support address for account deletion requests. */
export const SUPPORT_EMAIL = 'support@vitrine.market';
