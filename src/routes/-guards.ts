import { notFound, type ParsedLocation, redirect } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { ApiError } from '#domain/apiError';
import { isLoggedIn, isResuming, profileSettled } from '../../machines/session';
import type { RouterContext } from './__root';

/** How long a page waits for the session (a renewal, the signed-in user's profile) before it goes on. */
export const SESSION_WAIT_MS = 5000;

type Session = RouterContext['app']['session'];

/**
 * The signed-in user's profile once it is settled (here, failed, or the visitor is logged out),
 * waiting at most SESSION_WAIT_MS: null when there is none by then. No loader waits longer.
 */
export async function signedInUser(session: Session) {
  const s = await waitFor(session, profileSettled, { timeout: SESSION_WAIT_MS }).catch(() =>
    session.getSnapshot(),
  );
  return s.context.user;
}

/**
 * Whether someone is logged in, once a session that is renewing an expired token (back from another
 * site, or a tab reopened) has its answer, waiting at most SESSION_WAIT_MS.
 */
async function loggedInAfterResume(session: Session) {
  const s = await waitFor(session, (snapshot) => !isResuming(snapshot), { timeout: SESSION_WAIT_MS }).catch(
    () => session.getSnapshot(),
  );
  return isLoggedIn(s);
}

/**
 * The pages of a signed-in user: a visitor who is not logged in goes to sign in, and the session
 * remembers where they were headed, to go there after login.
 */
export async function requireLogin({
  context,
  location,
}: {
  context: RouterContext;
  location: ParsedLocation;
}) {
  const { session } = context.app;
  if (await loggedInAfterResume(session)) return;
  session.send({ type: 'session.redirect.save', path: location.href });
  throw redirect({ to: '/auth/connect' });
}

/** A 404 (or a malformed id) of the API is the Not Found page. */
export function orNotFound(error: unknown): never {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) throw notFound();
  throw error;
}
/** A 404 (or a malformed id) of the API is nothing. */
export function orNull(error: unknown): null {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
  throw error;
}

/** Query strings: one optional string parameter. */
export const optionalString =
  <K extends string>(key: K) =>
  (search: Record<string, unknown>) =>
    (typeof search[key] === 'string' ? { [key]: search[key] } : {}) as { [P in K]?: string };

/** The NFT action flows (list, remove, buy, transfer), loaded with the screens that offer them. */
export async function nftMachines(app: RouterContext['app']) {
  const [listForSale, removeListing, buyListing, transferNfts] = await Promise.all([
    app.flows.listForSale(),
    app.flows.removeListing(),
    app.flows.buyListing(),
    app.flows.transferNfts(),
  ]);
  return { listForSale, removeListing, buyListing, transferNfts };
}
