import { fromPromise } from 'xstate';
import { ApiError, ErrorCode, errorMessage } from '#domain/errors';
import type {
  CreateTokenChargeRequest,
  TokenCheckpoint,
  TransferCheck,
  WalletAccount,
} from '#domain/ports/checkout';
import {
  type CreateTokenChargeBody,
  type TokenChargeJson,
  type TokenPriceConversionJson,
  tokenChargeDomain,
  tokenChargeTypes,
} from '#domain/schemas/token';
import type { Api } from './api';

/**
 * The browser wallet (any EIP-1193 provider at `window.ethereum`: MetaMask in production) through
 * ethers 6, loaded only when the utility-token rail is used, and the product API's token-charges.
 * Wallet failures become the error codes the panel words: rejected (4001 / ACTION_REJECTED),
 * insufficient_funds, chainId (a network the wallet is not on, or cannot add).
 */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}
declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

const walletError = (code: ErrorCode) => new ApiError(400, { code, message: errorMessage({ code }) });

type WalletFailure = {
  code?: unknown;
  message?: unknown;
  data?: unknown;
  info?: { error?: WalletFailure };
  error?: WalletFailure;
  event?: unknown;
};
/** The codes, messages and revert data of an error and the errors it wraps (ethers, MetaMask). */
function layers(err: unknown): WalletFailure[] {
  const out: WalletFailure[] = [];
  const visit = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || depth > 4) return;
    const f = e as WalletFailure & { data?: { originalError?: unknown } };
    out.push(f);
    visit(f.info?.error, depth + 1);
    visit(f.error, depth + 1);
    if (f.data && typeof f.data === 'object')
      visit((f.data as { originalError?: unknown }).originalError, depth + 1);
  };
  visit(err, 0);
  return out;
}

/** The network is unknown to the wallet (EIP-3326's 4902, also wrapped by MetaMask Mobile). */
export const unknownChain = (err: unknown) => layers(err).some((e) => e.code === 4902);

/** OpenZeppelin's ERC20InsufficientBalance(address,uint256,uint256) revert. */
const ERC20_INSUFFICIENT_BALANCE = '0xe450d38c';

/**
 * What a wallet or ethers threw, as one of the panel's codes: rejected (EIP-1193's 4001, ethers'
 * ACTION_REJECTED), insufficient_funds (not enough ETH for the fee, or NFM for the transfer: the
 * token's revert), chainId (a network the wallet does not know, or one it is not on); anything
 * else as it was.
 */
export function toWalletError(err: unknown): unknown {
  const all = layers(err);
  const codes = all.map((e) => e.code);
  const text = all
    .map((e) => `${String(e.message ?? '')} ${typeof e.data === 'string' ? e.data : ''}`)
    .join(' ');
  if (codes.includes(4001) || codes.includes('ACTION_REJECTED')) return walletError(ErrorCode.REJECTED);
  if (
    codes.includes('INSUFFICIENT_FUNDS') ||
    /insufficient funds|exceeds balance|ERC20InsufficientBalance/i.test(text) ||
    text.includes(ERC20_INSUFFICIENT_BALANCE)
  )
    return walletError(ErrorCode.ETH_INSUFFICIENT_FUNDS);
  if (
    codes.includes(4902) ||
    // ethers: the wallet moved to another network under it; MetaMask: typed data for another chain.
    all.some((e) => e.code === 'NETWORK_ERROR' && e.event === 'changed') ||
    /must match the active chainId|network changed/i.test(text)
  )
    return walletError(ErrorCode.CHAIN_ID);
  return err;
}

/** The network as wallet_addEthereumChain takes it; null when no public RPC URL is configured. */
export interface AddableNetwork {
  chainName: string;
  rpcUrl: string | null;
}

const hexChain = (chainId: number) => `0x${chainId.toString(16)}`;
const ERC20_TRANSFER = ['function transfer(address to, uint256 value) returns (bool)'];

export function evmWallet(provider: () => Eip1193Provider | undefined = () => window.ethereum) {
  const wallet = () => {
    const p = provider();
    if (!p) throw walletError(ErrorCode.METAMASK_REQUIRED);
    return p;
  };
  async function account(): Promise<WalletAccount> {
    const [address] = (await wallet().request({ method: 'eth_requestAccounts' })) as string[];
    const chainId = Number.parseInt((await wallet().request({ method: 'eth_chainId' })) as string, 16);
    return { address: address!, chainId };
  }
  async function signer() {
    const { BrowserProvider } = await import('ethers');
    return new BrowserProvider(wallet() as never).getSigner();
  }
  const guarded =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (err) {
        throw toWalletError(err);
      }
    };
  return {
    available: () => provider() !== undefined,
    connect: guarded(account),
    /**
     * wallet_switchEthereumChain; a wallet that does not know the network (4902) is asked to add it
     * first (wallet_addEthereumChain with its chain id, name and public RPC URL, its fee currency
     * ETH), then to switch. Without a public RPC URL the buyer adds the network in the wallet.
     */
    switchNetwork: guarded(async (chainId: number, network: () => Promise<AddableNetwork | null>) => {
      const switchTo = () =>
        wallet().request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hexChain(chainId) }] });
      try {
        await switchTo();
      } catch (err) {
        if (!unknownChain(err)) throw err;
        const known = await network();
        if (!known?.rpcUrl) throw walletError(ErrorCode.CHAIN_ID);
        await wallet().request({
          method: 'wallet_addEthereumChain',
          params: [
            {
              chainId: hexChain(chainId),
              chainName: known.chainName,
              rpcUrls: [known.rpcUrl],
              nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            },
          ],
        });
        // MetaMask moves to the network it added; another wallet may not.
        if ((await account()).chainId !== chainId) await switchTo();
      }
      return account();
    }),
    /** The charge signed as EIP-712 typed data. */
    signCharge: guarded(async (charge: TokenChargeJson) =>
      (await signer()).signTypedData(
        tokenChargeDomain(charge.chainId, charge.tokenAddress),
        tokenChargeTypes as never,
        {
          charge: charge.id,
          amount: charge.tokenAmount,
          to: charge.paymentsAddress,
        },
      ),
    ),
    /**
     * The NFM transfer to the platform's address, sent by the wallet (eth_sendTransaction of the
     * token's transfer call): its hash as soon as the wallet answers it, without waiting for
     * anything else, so that it is kept and reported before anything can go wrong.
     */
    transfer: guarded(async (charge: TokenChargeJson) => {
      const { Interface } = await import('ethers');
      const data = new Interface(ERC20_TRANSFER).encodeFunctionData('transfer', [
        charge.paymentsAddress,
        BigInt(charge.tokenAmount),
      ]);
      const tx = { from: charge.ethAddress, to: charge.tokenAddress, data };
      // Tried first: a transfer the token would refuse (its balance is short now) is never sent.
      await wallet().request({ method: 'eth_estimateGas', params: [tx] });
      const hash = await wallet().request({ method: 'eth_sendTransaction', params: [tx] });
      if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash))
        throw new Error(`the wallet answered no transaction hash: ${String(hash)}`);
      return { hash: hash.toLowerCase() };
    }),
    /** Whether `address` has a transaction the wallet's network has not mined yet. */
    pendingFrom: guarded(async (address: string) => {
      const count = async (block: string) =>
        BigInt(
          (await wallet().request({ method: 'eth_getTransactionCount', params: [address, block] })) as string,
        );
      const [pending, latest] = await Promise.all([count('pending'), count('latest')]);
      return pending > latest;
    }),
  };
}
export type EvmWallet = ReturnType<typeof evmWallet>;

/** POST token-charges' body. */
export function tokenChargeBody(request: CreateTokenChargeRequest): CreateTokenChargeBody {
  return {
    type: 'directPurchase',
    ethAddress: request.ethAddress,
    toCurrency: 'FRR',
    ...(request.item.kind === 'pack'
      ? { blueprintPackId: request.item.id }
      : { blueprintId: request.item.id }),
    expectedPrice: request.price,
    idempotencyKey: request.idempotencyKey,
  };
}

/** The actors tokenChargeMachine names. */
export function tokenActors(api: Api, wallet: EvmWallet) {
  return {
    estimate: fromPromise<TokenPriceConversionJson, { cents: number }>(({ input }) =>
      api.get('/token-price-conversions', { query: { from: 'USD', to: 'FRR', amount: input.cents } }),
    ),
    connectWallet: fromPromise<WalletAccount, void>(() => wallet.connect()),
    switchNetwork: fromPromise<WalletAccount, { chainId: number }>(({ input }) =>
      wallet.switchNetwork(input.chainId, async () => {
        const token = (await api.get('/config/payments')).token;
        return token ? { chainName: token.chainName, rpcUrl: token.rpcUrl } : null;
      }),
    ),
    createCharge: fromPromise<TokenChargeJson, CreateTokenChargeRequest>(({ input }) =>
      api.post('/token-charges', { json: tokenChargeBody(input) }),
    ),
    loadCharge: fromPromise<TokenChargeJson, { id: string }>(({ input }) =>
      api.get('/token-charges/{id}', { params: { id: input.id } }),
    ),
    signCharge: fromPromise<TokenChargeJson, { charge: TokenChargeJson }>(async ({ input }) => {
      const signature = await wallet.signCharge(input.charge);
      return api.patch('/token-charges/{id}', { params: { id: input.charge.id }, json: { signature } });
    }),
    findTransfer: fromPromise<TransferCheck, { charge: TokenChargeJson }>(async ({ input }) => {
      // The server takes a transfer of the charge it finds on chain when it reads the charge.
      const charge = await api.get('/token-charges/{id}', { params: { id: input.charge.id } });
      if (charge.transactions.length > 0 || charge.status !== 'signed') return { charge, pending: false };
      return { charge, pending: wallet.available() ? await wallet.pendingFrom(charge.ethAddress) : false };
    }),
    sendTransfer: fromPromise<{ hash: string }, { charge: TokenChargeJson }>(({ input }) =>
      wallet.transfer(input.charge),
    ),
    reportTransfer: fromPromise<TokenChargeJson, { id: string; transactionHash: string }>(({ input }) =>
      api.patch('/token-charges/{id}', {
        params: { id: input.id },
        json: { transactionHash: input.transactionHash },
      }),
    ),
    cancelCharge: fromPromise<TokenChargeJson, { id: string }>(({ input }) =>
      api.patch('/token-charges/{id}', { params: { id: input.id }, json: { status: 'canceled' } }),
    ),
  };
}

/** The tab's checkpoint of a token charge under way (sessionStorage): a reload resumes it. */
const CHECKPOINT_KEY = 'vitrine.tokenCharge';
export const tokenCheckpoint = {
  read(): TokenCheckpoint | null {
    try {
      const raw = sessionStorage.getItem(CHECKPOINT_KEY);
      const value = raw ? (JSON.parse(raw) as TokenCheckpoint) : null;
      if (!value || typeof value.chargeId !== 'string') return null;
      const item = value.item;
      const itemValid =
        item === undefined ||
        ((item?.kind === 'blueprint' || item?.kind === 'pack') && typeof item.id === 'string');
      return itemValid ? value : null;
    } catch {
      return null;
    }
  },
  save(checkpoint: TokenCheckpoint) {
    sessionStorage.setItem(CHECKPOINT_KEY, JSON.stringify(checkpoint));
  },
  clear() {
    sessionStorage.removeItem(CHECKPOINT_KEY);
  },
};
