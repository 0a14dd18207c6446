/**
 * Business timings: publish polls every 2 s up to 50 times; purchase complete polls every 750 ms
 * for 500 ticks; countdowns tick every second; the carousel scrolls every 4 s; the copy toast shows
 * 3.5 s, the saved toast 4 s; hash navigation waits 500 ms; resizes debounce 100 ms; an image job is
 * polled every second and given up after 10 s.
 */
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

/** A countdown shows a day count instead of hours:minutes:seconds above this many hours. */
export const COUNTDOWN_DAYS_ABOVE_HOURS = 99;
/** A carousel swipe changes the slide once it has moved this fraction of the slide width. */
export const CAROUSEL_SWIPE_THRESHOLD = 0.1;

/** Settings tabs become buttons at this width or less (px); wider, they are links. */
export const SETTINGS_BREAKPOINT_PX = 680;
/** Support address for account deletion requests. */
export const SUPPORT_EMAIL = 'support@vitrine.market';
