import { fromPromise } from 'xstate';
import { timings } from '#domain/constants';
import { once } from '../lazy';
import { formDrafts } from '../services/drafts';
import type { FlowDeps } from './deps';
import type { SharedFlowParts } from './shared';

/** The account flows: signing in and up, settings, the wallet link, identity checks, the avatar. */
export function accountFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { api, session, ui, flow, accounts, walletConnected } = deps;
  const { linkWallet, announceWalletLinked, collectionActors, imageUploads, inspectImage } = shared;
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
      (await import('../../machines/emailConfirmation')).emailConfirmationMachine.provide({
        actors: { confirmEmail: accounts.confirmEmail },
        actions: {
          announceConfirmed: (_, { email }) => {
            const user = session.getSnapshot().context.user;
            if (user)
              session.send({ type: 'session.user.updated', user: { ...user, email, pendingEmail: null } });
          },
        },
      }),
    ),
    saleEmailsOff: once(async () =>
      (await import('../../machines/saleEmailsOff')).saleEmailsOffMachine.provide({
        actors: { turnOff: accounts.turnOffSaleEmails },
        actions: {
          announceOff: (_, { userId, ...off }) => {
            const user = session.getSnapshot().context.user;
            if (user?.id === userId)
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
