import { fromPromise } from 'xstate';
import type {
  CreateTokenChargeRequest,
  TokenCheckpoint,
  TransferCheck,
  WalletAccount,
} from '../../machines/tokenCharge';
import { ApiError, ErrorCode, errorMessage } from '../domain/errors';
import {
  type CreateTokenChargeBody,
  type TokenChargeJson,
  type TokenPriceConversionJson,
  tokenChargeDomain,
  tokenChargeTypes,
} from '../domain/schemas/token';
import type { Api } from './api';

/**
 * The browser wallet (any EIP-1193 provider at `window.ethereum`: MetaMask in production) through
 * ethers 6, loaded only when the utility-token rail is used, and the product API's token-charges.
 * Wallet failures become the error codes the panel words: rejected (4001 / ACTION_REJECTED),
 * insufficient_funds, chainId (a network the wallet cannot switch to).
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

/** What a wallet or ethers threw, as one of the panel's codes. */
export function toWalletError(err: unknown): unknown {
  const e = err as {
    code?: unknown;
    info?: { error?: { code?: unknown } };
    error?: { code?: unknown };
    message?: string;
  };
  const code = e?.code ?? e?.info?.error?.code ?? e?.error?.code;
  if (code === 4001 || code === 'ACTION_REJECTED') return walletError(ErrorCode.REJECTED);
  if (code === 'INSUFFICIENT_FUNDS' || /insufficient funds|exceeds balance/i.test(String(e?.message)))
    return walletError(ErrorCode.ETH_INSUFFICIENT_FUNDS);
  if (code === 4902) return walletError(ErrorCode.CHAIN_ID);
  return err;
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
    switchNetwork: guarded(async (chainId: number) => {
      await wallet().request({
        method: 'wallet_switchEthereumChain',
        params: [{ chainId: hexChain(chainId) }],
      });
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
      const hash = await wallet().request({
        method: 'eth_sendTransaction',
        params: [{ from: charge.ethAddress, to: charge.tokenAddress, data }],
      });
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

const id = (value: string) => encodeURIComponent(value);

/** The actors tokenChargeMachine names. */
export function tokenActors(api: Api, wallet: EvmWallet) {
  return {
    estimate: fromPromise<TokenPriceConversionJson, { cents: number }>(({ input }) =>
      api.get<TokenPriceConversionJson>(`token-price-conversions?from=USD&to=FRR&amount=${input.cents}`),
    ),
    connectWallet: fromPromise<WalletAccount, void>(() => wallet.connect()),
    switchNetwork: fromPromise<WalletAccount, { chainId: number }>(({ input }) =>
      wallet.switchNetwork(input.chainId),
    ),
    createCharge: fromPromise<TokenChargeJson, CreateTokenChargeRequest>(({ input }) =>
      api.post<TokenChargeJson>('token-charges', tokenChargeBody(input)),
    ),
    loadCharge: fromPromise<TokenChargeJson, { id: string }>(({ input }) =>
      api.get<TokenChargeJson>(`token-charges/${id(input.id)}`),
    ),
    signCharge: fromPromise<TokenChargeJson, { charge: TokenChargeJson }>(async ({ input }) => {
      const signature = await wallet.signCharge(input.charge);
      return api.patch<TokenChargeJson>(`token-charges/${id(input.charge.id)}`, { signature });
    }),
    findTransfer: fromPromise<TransferCheck, { charge: TokenChargeJson }>(async ({ input }) => {
      // The server takes a transfer of the charge it finds on chain when it reads the charge.
      const charge = await api.get<TokenChargeJson>(`token-charges/${id(input.charge.id)}`);
      if (charge.transactions.length > 0 || charge.status !== 'signed') return { charge, pending: false };
      return { charge, pending: wallet.available() ? await wallet.pendingFrom(charge.ethAddress) : false };
    }),
    sendTransfer: fromPromise<{ hash: string }, { charge: TokenChargeJson }>(({ input }) =>
      wallet.transfer(input.charge),
    ),
    reportTransfer: fromPromise<TokenChargeJson, { id: string; transactionHash: string }>(({ input }) =>
      api.patch<TokenChargeJson>(`token-charges/${id(input.id)}`, { transactionHash: input.transactionHash }),
    ),
    cancelCharge: fromPromise<TokenChargeJson, { id: string }>(({ input }) =>
      api.patch<TokenChargeJson>(`token-charges/${id(input.id)}`, { status: 'canceled' }),
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
