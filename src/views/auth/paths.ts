/** The URL of each auth step (SPEC §2 /auth children). */
const paths: Record<string, string> = {
  entering: '/auth/connect',
  connect: '/auth/connect',
  connectingWallet: '/auth/connect',
  checking: '/auth/connect',
  walletEmail: '/auth/connect',
  checkingWalletEmail: '/auth/connect',
  signup: '/auth/signup',
  name: '/auth/name',
  registering: '/auth/name',
  welcome: '/auth/welcome',
  savingProfile: '/auth/welcome',
  login: '/auth/login',
  loggingIn: '/auth/login',
  forgot: '/auth/forgot-password',
  requestingReset: '/auth/forgot-password',
  forgotSent: '/auth/forgot-password',
  reset: '/auth/reset-password',
  resetting: '/auth/reset-password',
  resetDone: '/auth/reset-password',
  resetInvalid: '/auth/reset-password',
};

export const authPathFor = (step: string) => paths[step] ?? '/auth/connect';

/** Steps that swipe: connect, signup, name and avatar (welcome). */
const swipeOrder = ['connect', 'signup', 'name', 'welcome'];
export const swipeIndex = (path: string) => swipeOrder.indexOf(path.replace('/auth/', ''));
