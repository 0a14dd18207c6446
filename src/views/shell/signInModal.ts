import { once } from '../../lazy';

/** The sign-in modal's code, loaded once: the first time it opens, or when a page expects it to. */
export const loadSignInModal = once(() => import('./SignInModal'));

/** Fetches the sign-in modal's code ahead, e.g. when a visitor heads for Buy, so it opens at once. */
export const preloadSignInModal = () => void loadSignInModal().catch(() => {});
