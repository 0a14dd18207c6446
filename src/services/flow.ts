import checkCollectionCadence from '../../cadence/scripts/check_collection.cdc?raw';
import setupAccountCadence from '../../cadence/transactions/setup_account.cdc?raw';
import type { WalletConnectResult } from '../../machines/auth';
import { bindImports } from '../domain/cadence';
import { ApiError, ErrorCode, errorMessage } from '../domain/errors';
import { readSessionToken } from '../domain/token';
import type { User } from '../domain/user';
import type { Api } from './api';

/**
 * Flow in the browser through FCL: configured from the server's chain (GET /api/chain/config) and
 * loaded with import(), so pages that never touch the chain do not carry it.
 */
export interface ChainConfig {
  network: 'emulator' | 'testnet' | 'mainnet';
  accessNode: string;
  walletDiscovery: string;
  contracts: Record<string, string>;
}

interface FclService {
  type: string;
  data?: {
    address?: string;
    nonce?: string;
    signatures?: Array<{ addr: string; keyId: number; signature: string }>;
    email?: { email?: string };
  };
}
interface FclUser {
  addr?: string | null;
  cid?: string | null;
  loggedIn?: boolean | null;
  services?: FclService[];
}
type FclArgs = (arg: (value: unknown, type: unknown) => unknown, t: Record<string, unknown>) => unknown[];
interface Fcl {
  config(values: Record<string, unknown>): unknown;
  authenticate(): Promise<FclUser>;
  unauthenticate(): void;
  query(options: { cadence: string; args?: FclArgs }): Promise<unknown>;
  mutate(options: { cadence: string; args?: FclArgs; limit: number }): Promise<string>;
  tx(id: string): { onceSealed(): Promise<{ status: number; errorMessage?: string }> };
}

/** Compute limit of every transaction the wallet signs. */
const COMPUTE_LIMIT = 9999;

const walletError = (code: string) => new ApiError(400, { code, message: errorMessage({ code }) });

export function createFlow(api: Api) {
  let chainConfig: Promise<ChainConfig> | undefined;
  let loading: Promise<{ fcl: Fcl; config: ChainConfig }> | undefined;
  const retryable = <T>(p: Promise<T>, reset: () => void) =>
    p.catch((err) => {
      reset();
      throw err;
    });

  /** This server's chain; fails when it runs without one. */
  const config = () =>
    (chainConfig ??= retryable(api.get<ChainConfig>('chain/config'), () => {
      chainConfig = undefined;
    }));

  /** FCL configured for this server's chain (its code loads here, on first use). */
  const load = () =>
    (loading ??= retryable(
      (async () => {
        const chain = await config();
        const fcl = (await import('@onflow/fcl')) as unknown as Fcl;
        fcl.config({
          'app.detail.title': 'Vitrine',
          'app.detail.icon': `${window.location.origin}/favicon.svg`,
          'accessNode.api': chain.accessNode,
          'discovery.wallet': chain.walletDiscovery,
          'flow.network': chain.network === 'emulator' ? 'local' : chain.network,
          // Every connection carries an account proof over a nonce the server issued.
          'fcl.accountProof.resolver': () =>
            api.post<{ appIdentifier: string; nonce: string }>('users/wallets/actions/request-account-proof'),
        });
        return { fcl, config: chain };
      })(),
      () => {
        loading = undefined;
      },
    ));

  return {
    load,
    /** Whether this server has a chain the browser can connect a wallet to (FCL itself not loaded). */
    async available(): Promise<boolean> {
      return config().then(
        () => true,
        (err: unknown) => {
          console.warn('No wallet connection on this server:', err);
          return false;
        },
      );
    },
    /** Logs the wallet out of FCL (nothing to do when FCL never loaded). */
    async disconnect(): Promise<void> {
      if (!loading) return;
      const { fcl } = await loading;
      fcl.unauthenticate();
    },
    /** Whether `address` holds a VitrineNFT collection and an FUSD vault. */
    async checkCollection(address: string): Promise<{ ready: boolean }> {
      const { fcl, config } = await load();
      const result = (await fcl.query({
        cadence: bindImports(checkCollectionCadence, config.contracts),
        args: (arg, t) => [arg(address, t.Address)],
      })) as { ready: boolean };
      return { ready: !!result.ready };
    },
    /** The account-setup transaction, signed in the connected wallet and awaited until sealed. */
    async setupCollection(): Promise<void> {
      const { fcl, config } = await load();
      try {
        const id = await fcl.mutate({
          cadence: bindImports(setupAccountCadence, config.contracts),
          limit: COMPUTE_LIMIT,
        });
        await fcl.tx(id).onceSealed();
      } catch (err) {
        console.warn('Account setup failed:', err);
        throw walletError(ErrorCode.TRANSACTION);
      }
    },
    /**
     * Connects a wallet (SPEC §4 wallet-connect): the wallet proves its address over a fresh nonce,
     * the server checks the proof on chain and logs in the account holding the wallet, or answers a
     * wallet proof for registering it.
     */
    async connectWallet(): Promise<WalletConnectResult> {
      const { fcl } = await load();
      fcl.unauthenticate();
      const user = await fcl.authenticate();
      // Closing the wallet or refusing answers a user without an address: connect canceled.
      if (!user?.addr) throw walletError(ErrorCode.WALLET_CANCELED);
      const proof = user.services?.find((s) => s.type === 'account-proof')?.data;
      const signature = proof?.signatures?.[0];
      if (!proof?.nonce || !signature) throw walletError(ErrorCode.WALLET_ACCOUNT_DATA);
      const email = user.services?.find((s) => s.type === 'open-id')?.data?.email?.email ?? null;
      const verified = await api.post<{ authToken: string | null; walletProof?: string }>(
        'users/wallets/actions/verify-account-proof',
        {
          walletAddress: user.addr,
          keyId: signature.keyId,
          signature: signature.signature,
          nonce: proof.nonce,
          ...(email ? { email } : {}),
        },
      );
      if (verified.authToken) return { kind: 'loggedIn', authToken: verified.authToken };
      return {
        kind: 'newUser',
        email,
        walletAddress: user.addr,
        cid: user.cid || user.addr,
        walletProof: verified.walletProof ?? null,
      };
    },
  };
}
export type Flow = ReturnType<typeof createFlow>;

/**
 * Settings → Wallet relink: connect and prove a wallet, then link it to the signed-in user. A wallet
 * that already belongs to this user changes nothing; one of another account is refused (WALLET_EXISTS).
 */
export async function linkWallet(flow: Flow, api: Api, me: User): Promise<{ user: User }> {
  const result = await flow.connectWallet();
  if (result.kind === 'loggedIn') {
    if (readSessionToken(result.authToken)?.userId === me.id) return { user: me };
    throw new ApiError(400, {
      code: ErrorCode.WALLET_EXISTS,
      field: 'walletAddress',
      message: errorMessage({ code: ErrorCode.WALLET_EXISTS }),
    });
  }
  const { authToken: _token, ...user } = await api.patch<User & { authToken?: string }>('users/me', {
    walletAddress: result.walletAddress,
    walletProof: result.walletProof,
  });
  return { user };
}
