import { fromPromise } from 'xstate';
import { timings } from '#domain/constants';
import { once } from '../lazy';
import { formDrafts } from '../services/drafts';
import type { FlowDeps } from './deps';
import type { SharedFlowParts } from './shared';

/** The account flows: signing in and up, settings, the wallet, identity checks, emails, the avatar. */
export function accountFlows(deps: FlowDeps, shared: SharedFlowParts) {
  return { ...signInAndWalletFlows(deps, shared), ...profileFlows(deps, shared) };
}

/** Signing in and up, the settings form, the wallet (collection, FUSD balance, link). */
function signInAndWalletFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { session, ui, flow, accounts, walletConnected } = deps;
  const { linkWallet, announceWalletLinked, collectionActors } = shared;
  return {
    auth: once(async () =>
      (await import('../../machines/auth')).authMachine.provide({
        actors: {
          ...accounts,
          connectWallet: fromPromise(async () => {
            const result = await flow.connectWallet();
            walletConnected();
            return result;
          }),
        },
        actions: {
          announceLogin: (_, { authToken }) => session.send({ type: 'session.login', token: authToken }),
          announceUser: (_, { user }) => session.send({ type: 'session.user.updated', user }),
        },
      }),
    ),
    settingsForm: once(async () =>
      (await import('../../machines/settingsForm')).settingsFormMachine.provide({
        actors: { save: accounts.saveSettings },
        actions: {
          stashDraft: (_, { key, values }) => formDrafts.write(key, values),
          forgetDraft: (_, { key }) => formDrafts.clear(key),
          announceSaved: (_, { user, authToken }) => {
            const asked =
              user.pendingEmail && user.pendingEmail !== session.getSnapshot().context.user?.pendingEmail;
            session.send({ type: 'session.user.updated', user, token: authToken });
            ui.send({
              type: 'ui.toast.show',
              id: 'settings-saved',
              text: asked
                ? `Saved. Open the link we sent to ${user.pendingEmail} to confirm your new email.`
                : 'Saved',
              duration: timings.savedToastMs,
            });
          },
        },
      }),
    ),
    collectionCheck: once(async () =>
      (await import('../../machines/collectionCheck')).collectionCheckMachine.provide({
        actors: collectionActors,
      }),
    ),
    fusdBalance: once(async () =>
      (await import('../../machines/fusdBalance')).fusdBalanceMachine.provide({
        actors: {
          readBalance: fromPromise(({ input }: { input: { address: string } }) =>
            flow.fusdBalance(input.address),
          ),
        },
      }),
    ),
    walletLink: once(async () =>
      (await import('../../machines/walletLink')).walletLinkMachine.provide({
        actors: { linkWallet },
        actions: { announceLinked: (_, { user }) => announceWalletLinked(user) },
      }),
    ),
  };
}

/** Identity checks, the email links (confirm, sale or favorite emails off), the avatar and the sale notices. */
function profileFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { api, session, accounts } = deps;
  const { imageUploads, inspectImage } = shared;
  return {
    kyc: once(async () =>
      (await import('../../machines/kyc')).kycMachine.provide({
        actors: {
          createSession: accounts.createKycSession,
          readStatus: fromPromise(async () => ({ user: await api.get('/users/me') })),
        },
        actions: {
          openVerification: (_, { url }) => window.location.assign(url),
          announceUser: (_, { user }) => session.send({ type: 'session.user.updated', user }),
        },
      }),
    ),
    emailConfirmation: once(async () =>
      (await import('../../machines/linkAction')).linkActionMachine.provide({
        actors: { apply: accounts.confirmEmail },
        actions: {
          announce: (_, result) => {
            const user = session.getSnapshot().context.user;
            if (user && 'email' in result)
              session.send({
                type: 'session.user.updated',
                user: { ...user, email: result.email, pendingEmail: null },
              });
          },
        },
      }),
    ),
    saleEmailsOff: once(async () =>
      (await import('../../machines/linkAction')).linkActionMachine.provide({
        actors: { apply: accounts.turnOffSaleEmails },
        actions: {
          announce: (_, result) => {
            const user = session.getSnapshot().context.user;
            if (!user || !('userId' in result) || user.id !== result.userId) return;
            const { userId: _userId, ...off } = result;
            session.send({ type: 'session.user.updated', user: { ...user, ...off } });
          },
        },
      }),
    ),
    avatarUpload: once(async () => {
      const uploadImages = await imageUploads();
      return (await import('../../machines/avatarUpload')).avatarUploadMachine.provide({
        actors: {
          inspectImage,
          uploadImages,
          saveAvatar: accounts.saveAvatar,
        },
        actions: {
          announceUser: (_, { user }) => session.send({ type: 'session.user.updated', user }),
        },
      });
    }),
    saleNotices: once(async () =>
      (await import('../../machines/saleNotices')).saleNoticesMachine.provide({
        actors: {
          fetchNotices: fromPromise(() => api.get('/notifications')),
          markRead: fromPromise<unknown>(() => api.post('/notifications/actions/read')),
          saveSaleEmails: fromPromise(async ({ input }) => ({
            user: await api.patch('/users/me', { json: input }),
          })),
        },
        actions: {
          announceUser: (_, { user }) => session.send({ type: 'session.user.updated', user }),
        },
      }),
    ),
  };
}
