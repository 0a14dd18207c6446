import type { User } from '../user';

/**
 * What the browser's account services supply to the sign-in, session and settings machines.
 */

export type WalletConnectResult =
  | { kind: 'loggedIn'; authToken: string }
  | {
      kind: 'newUser';
      /** Shared by wallets that know it (Blocto); others leave it to the user. */
      email: string | null;
      walletAddress: string | null;
      cid: string | null;
      /** The server's proof that this browser controls walletAddress, for registration. */
      walletProof: string | null;
    };

export interface RegistrationRequest {
  email: string;
  password: string | null;
  firstName: string;
  lastName: string;
  walletAddress: string | null;
  cid: string | null;
  walletProof: string | null;
}

export type ProfileResult = { status: 'ok'; user: User } | { status: 'notFound' };

export type SettingsKind = 'account' | 'password';

export type SaveResult = { user: User; authToken?: string };

/** The answer of turning emails off by an email's link: which list is off now. */
export type EmailsOff = { userId: string; saleEmails: false } | { userId: string; favoriteEmails: false };

/**
 * What the server answers an emailed link's action: the account's confirmed email (POST
 * users/email-confirmations), or which emails of which account are off (POST
 * users/sale-email-opt-outs: sale emails, or favorite emails for a link `favorites.…`).
 */
export type LinkResult = { email: string } | EmailsOff;
