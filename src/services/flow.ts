import { bindImports } from '#domain/cadence';
import { ApiError, ErrorCode, errorMessage } from '#domain/errors';
import { centsToFusd, fusdToCents, percentToRate } from '#domain/money';
import type { WalletConnectResult } from '#domain/ports/accounts';
import { readSessionToken } from '#domain/token';
import type { User } from '#domain/user';
import type { Api } from './api';
import { chainTransactions, SealTimeoutError } from './chainTransactions';

/**
 * Cadence sources, loaded with the chain code on first use (not in the first-load bundle of every
 * page): each is a module whose default export is the text.
 */
const cadence = {
  checkCollection: () => import('../../cadence/scripts/check_collection.cdc?raw'),
  fusdBalance: () => import('../../cadence/scripts/get_fusd_balance.cdc?raw'),
  buyListing: () => import('../../cadence/transactions/buy_listing.cdc?raw'),
  payOrder: () => import('../../cadence/transactions/pay_order.cdc?raw'),
  createListing: () => import('../../cadence/transactions/create_listing.cdc?raw'),
  removeListing: () => import('../../cadence/transactions/remove_listing.cdc?raw'),
  setupAccount: () => import('../../cadence/transactions/setup_account.cdc?raw'),
  transferNfts: () => import('../../cadence/transactions/transfer_nfts.cdc?raw'),
  makeOffer: () => import('../../cadence/transactions/make_offer.cdc?raw'),
  cancelOffer: () => import('../../cadence/transactions/cancel_offer.cdc?raw'),
  acceptOffer: () => import('../../cadence/transactions/accept_offer.cdc?raw'),
};
type CadenceSource = () => Promise<{ default: string }>;

/**
 * A sealed transaction's failure that says why in the offer contract's words: an offer past its
 * expiry, or one whose buyer's FUSD balance no longer covers it. Any other failure is TRANSACTION.
 */
function chainRefusal(message: string): string {
  if (/VitrineOffers: offer \d+ has expired/.test(message)) return ErrorCode.OFFER_EXPIRED;
  if (/VitrineOffers: offer \d+ is no longer funded/.test(message)) return ErrorCode.OFFER_UNFUNDED;
  return ErrorCode.TRANSACTION;
}

/**
 * Flow in the browser through FCL: configured from the server's chain (GET /api/chain/config) and
 * loaded with import(), so pages that never touch the chain do not carry it.
 */
export interface ChainConfig {
  network: 'emulator' | 'testnet' | 'mainnet';
  accessNode: string;
  walletDiscovery: string;
  contracts: Record<string, string>;
  /** Receives the platform fee of resale listings. */
  platformAddress: string;
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
/** FCL's argument builder; `t` holds the Cadence types (t.Address, t.Optional(t.Address), …). */
type FclType = unknown;
type FclTypes = Record<string, FclType> & {
  Optional(inner: FclType): FclType;
  Array(inner: FclType): FclType;
};
type FclArgs = (arg: (value: unknown, type: FclType) => unknown, t: FclTypes) => unknown[];
interface Fcl {
  config(values: Record<string, unknown>): unknown;
  authenticate(): Promise<FclUser>;
  unauthenticate(): void;
  query(options: { cadence: string; args?: FclArgs }): Promise<unknown>;
  mutate(options: { cadence: string; args?: FclArgs; limit: number }): Promise<string>;
  tx(id: string): { onceSealed(): Promise<SealedResult> };
  currentUser: { snapshot(): Promise<FclUser> };
}
interface SealedResult {
  status: number;
  errorMessage?: string;
  events: Array<{ type: string; data: Record<string, unknown> }>;
}
/** A transaction the wallet signed, sealed. */
export interface SentTransaction {
  transactionId: string;
  events: SealedResult['events'];
}
export interface CreateListingRequest {
  /** The seller's wallet (the user's linked address). */
  address: string;
  nftId: string;
  priceCents: number;
  /** The blueprint's totalFeePercent; royalties come from the NFT itself. */
  platformFeePercent: number;
}

/** Compute limit of every transaction the wallet signs. */
const COMPUTE_LIMIT = 9999;

const walletError = (code: string) => new ApiError(400, { code, message: errorMessage({ code }) });

/** The wallet declined to sign (the person pressed cancel or closed it). */
const declined = (err: unknown) => /declin|reject|cancel|halt/i.test(String((err as Error)?.message ?? err));

/** The server's chain configuration and FCL configured for it, each loaded once on first use. */
function fclLoader(api: Api) {
  let chainConfig: Promise<ChainConfig> | undefined;
  let loading: Promise<{ fcl: Fcl; config: ChainConfig }> | undefined;
  const retryable = <T>(p: Promise<T>, reset: () => void) =>
    p.catch((err) => {
      reset();
      throw err;
    });

  /** This server's chain; fails when it runs without one. */
  const config = () =>
    (chainConfig ??= retryable(api.get('/chain/config'), () => {
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
          'fcl.accountProof.resolver': () => api.post('/users/wallets/actions/request-account-proof'),
        });
        return { fcl, config: chain };
      })(),
      () => {
        loading = undefined;
      },
    ));
  /** FCL once its load has begun, else undefined (asking loads nothing). */
  const loaded = () => loading;
  return { config, load, loaded };
}
type LoadFcl = ReturnType<typeof fclLoader>['load'];

/**
 * The wallet of `address`, connected: the one FCL has, or a fresh connection. Transactions are
 * signed by the wallet linked to the account, never by whichever wallet happens to be connected.
 */
async function connectedAs(load: LoadFcl, address: string) {
  const { fcl } = await load();
  let user = await fcl.currentUser.snapshot();
  if (user?.addr !== address) {
    fcl.unauthenticate();
    user = await fcl.authenticate();
    if (!user?.addr) throw walletError(ErrorCode.WALLET_CANCELED);
    if (user.addr !== address) {
      fcl.unauthenticate();
      const mismatch = { code: ErrorCode.WALLET_MISMATCH, params: { address } };
      throw new ApiError(400, { ...mismatch, message: errorMessage(mismatch) });
    }
  }
}

/**
 * A transaction signed in `address`'s wallet and awaited until sealed, with an explicit compute
 * limit; `key` names the operation and what it acts on, so that a try after SEAL_TIMEOUT waits for
 * the transaction sent before instead of sending another (chainTransactions). A refusal in the
 * wallet is WALLET_CANCELED; a seal that does not come in time SEAL_TIMEOUT; any other failure
 * TRANSACTION.
 */
function transactor(load: LoadFcl) {
  const transactions = chainTransactions();
  return async (
    key: string,
    address: string,
    source: CadenceSource,
    args?: FclArgs,
  ): Promise<SentTransaction> => {
    await connectedAs(load, address);
    const { fcl, config } = await load();
    const send = async () => {
      try {
        const text = (await source()).default;
        return await fcl.mutate({
          cadence: bindImports(text, config.contracts),
          ...(args ? { args } : {}),
          limit: COMPUTE_LIMIT,
        });
      } catch (err) {
        console.warn('The wallet did not send the transaction:', err);
        throw walletError(declined(err) ? ErrorCode.WALLET_CANCELED : ErrorCode.TRANSACTION);
      }
    };
    const seal = async (transactionId: string) => {
      try {
        const sealed = await fcl.tx(transactionId).onceSealed();
        if (sealed.errorMessage) throw new Error(sealed.errorMessage);
        return sealed.events ?? [];
      } catch (err) {
        console.warn(`Transaction ${transactionId} failed:`, err);
        throw walletError(chainRefusal(String((err as Error)?.message ?? err)));
      }
    };
    try {
      const { transactionId, sealed } = await transactions.sendSealed(`${address}:${key}`, send, seal);
      return { transactionId, events: sealed };
    } catch (err) {
      if (err instanceof SealTimeoutError) console.warn(`Transaction ${err.transactionId} not sealed yet`);
      throw err;
    }
  };
}
type Transact = ReturnType<typeof transactor>;

/** A read-only Cadence script about `address`, run on this server's chain. */
async function queryAbout(load: LoadFcl, source: CadenceSource, address: string) {
  const { fcl, config } = await load();
  return fcl.query({
    cadence: bindImports((await source()).default, config.contracts),
    args: (arg, t) => [arg(address, t.Address)],
  });
}

/** The marketplace's transactions (listings, purchases, order payments, transfers), signed in the wallet. */
function marketTransactions(load: LoadFcl, transact: Transact) {
  return {
    /**
     * Lists an NFT on the seller's NFTStorefrontV2 storefront (with the fixed expiry, no commission
     * and our custom id); answers the chain's listing resource id.
     */
    async createListing(
      request: CreateListingRequest,
    ): Promise<SentTransaction & { blockchainListingId: string }> {
      const { config } = await load();
      const sent = await transact(
        `createListing:${request.nftId}:${request.priceCents}`,
        request.address,
        cadence.createListing,
        (arg, t) => [
          arg(request.nftId, t.UInt64),
          arg(centsToFusd(request.priceCents), t.UFix64),
          arg(request.platformFeePercent > 0 ? config.platformAddress : null, t.Optional(t.Address)),
          arg(percentToRate(request.platformFeePercent), t.UFix64),
        ],
      );
      const available = sent.events.find((e) => e.type.endsWith('.NFTStorefrontV2.ListingAvailable'));
      if (!available) throw walletError(ErrorCode.TRANSACTION);
      return { ...sent, blockchainListingId: String(available.data.listingResourceID) };
    },
    /** Removes the seller's listing from its storefront. */
    async removeListing(request: { address: string; blockchainListingId: string }): Promise<SentTransaction> {
      return transact(
        `removeListing:${request.blockchainListingId}`,
        request.address,
        cadence.removeListing,
        (arg, t) => [arg(request.blockchainListingId, t.UInt64)],
      );
    },
    /** Buys a listing of `seller`'s storefront with the buyer's FUSD; the NFT lands in the buyer's collection. */
    async buyListing(request: {
      address: string;
      seller: string;
      blockchainListingId: string;
    }): Promise<SentTransaction> {
      return transact(
        `buyListing:${request.blockchainListingId}`,
        request.address,
        cadence.buyListing,
        (arg, t) => [arg(request.seller, t.Address), arg(request.blockchainListingId, t.UInt64)],
      );
    },
    /**
     * Pays `amount` FUSD (UFix64 text) from the wallet `address` for the order `orderId`
     * (VitrineCheckout.pay); the server reads the payment from the sealed transaction.
     */
    async payOrder(request: { address: string; orderId: string; amount: string }): Promise<SentTransaction> {
      return transact(`payOrder:${request.orderId}`, request.address, cadence.payOrder, (arg, t) => [
        arg(request.orderId, t.String),
        arg(request.amount, t.UFix64),
      ]);
    },
    /** Moves NFTs `ids` from the wallet `address` to the collection of `to`, all or none. */
    async transferNfts(request: { address: string; to: string; ids: string[] }): Promise<SentTransaction> {
      return transact(
        `transferNfts:${[...request.ids].sort().join(',')}:${request.to}`,
        request.address,
        cadence.transferNfts,
        (arg, t) => [arg(request.to, t.Address), arg(request.ids, t.Array(t.UInt64))],
      );
    },
  };
}

/**
 * Offers on NFTs (VitrineOffers), signed in the wallet: the buyer makes and cancels, the NFT's owner
 * accepts. The server records each from its sealed transaction (POST offers/actions/record).
 */
function offerTransactions(transact: Transact) {
  return {
    /** Offers `amountCents` for NFT `nftId` until `expiryDays` days from the block's time. */
    async makeOffer(request: {
      address: string;
      nftId: string;
      amountCents: number;
      expiryDays: number;
    }): Promise<SentTransaction> {
      return transact(
        `makeOffer:${request.nftId}:${request.amountCents}:${request.expiryDays}`,
        request.address,
        cadence.makeOffer,
        (arg, t) => [
          arg(request.nftId, t.UInt64),
          arg(centsToFusd(request.amountCents), t.UFix64),
          arg(request.expiryDays, t.UInt8),
        ],
      );
    },
    /** Withdraws the buyer's offer `chainOfferId` from their offer book. */
    async cancelOffer(request: { address: string; chainOfferId: string }): Promise<SentTransaction> {
      return transact(
        `cancelOffer:${request.chainOfferId}`,
        request.address,
        cadence.cancelOffer,
        (arg, t) => [arg(request.chainOfferId, t.UInt64)],
      );
    },
    /** Sells the owner's NFT to `buyer` for their offer `chainOfferId`: the NFT and the FUSD move at once. */
    async acceptOffer(request: {
      address: string;
      buyer: string;
      chainOfferId: string;
    }): Promise<SentTransaction> {
      return transact(
        `acceptOffer:${request.buyer}:${request.chainOfferId}`,
        request.address,
        cadence.acceptOffer,
        (arg, t) => [arg(request.buyer, t.Address), arg(request.chainOfferId, t.UInt64)],
      );
    },
  };
}

/**
 * Connects a wallet: the wallet proves its address over a fresh nonce,
 * the server checks the proof on chain and logs in the account holding the wallet, or answers a
 * wallet proof for registering it.
 */
async function connectWallet(api: Api, load: LoadFcl): Promise<WalletConnectResult> {
  const { fcl } = await load();
  fcl.unauthenticate();
  const user = await fcl.authenticate();
  // Closing the wallet or refusing answers a user without an address: connect canceled.
  if (!user?.addr) throw walletError(ErrorCode.WALLET_CANCELED);
  const proof = user.services?.find((s) => s.type === 'account-proof')?.data;
  const signature = proof?.signatures?.[0];
  if (!proof?.nonce || !signature) throw walletError(ErrorCode.WALLET_ACCOUNT_DATA);
  const email = user.services?.find((s) => s.type === 'open-id')?.data?.email?.email ?? null;
  const verified = await api.post('/users/wallets/actions/verify-account-proof', {
    json: {
      walletAddress: user.addr,
      keyId: signature.keyId,
      signature: signature.signature,
      nonce: proof.nonce,
      ...(email ? { email } : {}),
    },
  });
  if (verified.authToken) return { kind: 'loggedIn', authToken: verified.authToken };
  return {
    kind: 'newUser',
    email,
    walletAddress: user.addr,
    cid: user.cid || user.addr,
    walletProof: verified.walletProof ?? null,
  };
}

/** The chain in the browser: queries, the wallet's transactions and connecting a wallet. */
export function createFlow(api: Api) {
  const { config, load, loaded } = fclLoader(api);
  const transact = transactor(load);
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
      const loading = loaded();
      if (!loading) return;
      const { fcl } = await loading;
      fcl.unauthenticate();
    },
    /** Whether `address` holds a VitrineNFT collection and an FUSD vault. */
    async checkCollection(address: string): Promise<{ ready: boolean }> {
      const result = (await queryAbout(load, cadence.checkCollection, address)) as { ready: boolean };
      return { ready: !!result.ready };
    },
    /** The account-setup transaction, signed in `address`'s wallet and awaited until sealed. */
    async setupCollection(address: string): Promise<void> {
      await transact('setupAccount', address, cadence.setupAccount);
    },
    /** The FUSD balance of `address` in cents (0 without a vault). */
    async fusdBalance(address: string): Promise<number> {
      return fusdToCents(String(await queryAbout(load, cadence.fusdBalance, address)));
    },
    ...marketTransactions(load, transact),
    ...offerTransactions(transact),
    connectWallet: () => connectWallet(api, load),
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
  const { authToken: _token, ...user } = await api.patch('/users/me', {
    json: { walletAddress: result.walletAddress, walletProof: result.walletProof },
  });
  return { user };
}
