import { preloadable } from '../../lazy';

/** The sign-in modal, whose code loads the first time it opens, or when a page expects it to. */
export const SignInModal = preloadable(async () => (await import('./SignInModal')).SignInModal);

/** Fetches the sign-in modal's code ahead, e.g. when a visitor heads for Buy, so it opens at once. */
export const preloadSignInModal = () => void SignInModal.preload().catch(() => {});
