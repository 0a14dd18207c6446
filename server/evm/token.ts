import { getAddress, Interface, JsonRpcProvider, Transaction, Wallet, zeroPadValue } from 'ethers';

/**
 * The NFM token as the server reads it: balances, and the NFM transfers a transaction made (its
 * receipt's Transfer logs of the token's contract), read from the node itself: the server never
 * takes the browser's word for a payment.
 */
export interface TokenTransfer {
  from: string;
  to: string;
  /** In the token's smallest unit (18 decimals). */
  value: bigint;
}
export interface FoundTransfer {
  hash: string;
  blockNumber: number;
  value: bigint;
}
export type TransactionRead =
  | { status: 'unknown' }
  | { status: 'failed' }
  | { status: 'mined'; transfers: TokenTransfer[]; blockNumber: number };

export interface TokenChain {
  chainId: number;
  /** How a wallet that lacks the network shows it (wallet_addEthereumChain's chainName). */
  chainName: string;
  /** The RPC URL a browser wallet may be given for the network (never a private one); null: none. */
  publicRpcUrl: string | null;
  tokenAddress: string;
  paymentsAddress: string;
  balanceOf(address: string): Promise<bigint>;
  readTransaction(hash: string): Promise<TransactionRead>;
  /** The latest block's number. */
  blockNumber(): Promise<number>;
  /**
   * The NFM transfers from `from` to the platform's address mined in block `fromBlock` or later
   * (the token's Transfer logs), oldest first: how a transfer nobody reported is found.
   */
  transfersToPayments(from: string, fromBlock: number): Promise<FoundTransfer[]>;
  /**
   * A transfer of `value` NFM from the platform's address to `to`, signed (not sent): its raw form
   * and hash. Null without the platform's key.
   */
  signRefund(to: string, value: bigint): Promise<{ raw: string; hash: string } | null>;
  /** Broadcasts a signed transaction (again: a known one is fine) and waits until it is mined. */
  sendSigned(raw: string): Promise<'mined' | 'failed'>;
  close(): void;
}

/** The node could not be asked (down, unreachable, answering garbage). */
export class TokenChainUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the EVM node could not be reached: ${(cause as Error)?.message ?? cause}`, { cause });
    this.name = 'TokenChainUnavailableError';
  }
}
const unavailable = (err: unknown): never => {
  throw new TokenChainUnavailableError(err);
};

const ERC20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

export function createTokenChain(options: {
  rpcUrl: string;
  chainId: number;
  tokenAddress: string;
  paymentsAddress: string;
  /** The payments address's private key (refunds). */
  paymentsKey?: string;
  chainName?: string;
  publicRpcUrl?: string | null;
}): TokenChain {
  const provider = new JsonRpcProvider(options.rpcUrl, options.chainId, { staticNetwork: true });
  // Receipts are polled for; a local node mines at once.
  provider.pollingInterval = 500;
  const payer = options.paymentsKey ? new Wallet(options.paymentsKey, provider) : null;
  const tokenAddress = getAddress(options.tokenAddress);
  const transferTopic = ERC20.getEvent('Transfer')!.topicHash;
  const paymentsAddress = getAddress(options.paymentsAddress);
  // Asked of the node each time (ethers' getBlockNumber answers from a short cache).
  const blockNumber = async () =>
    Number(BigInt((await provider.send('eth_blockNumber', []).catch(unavailable)) as string));
  return {
    chainId: options.chainId,
    chainName: options.chainName ?? `NFM network (chain ${options.chainId})`,
    publicRpcUrl: options.publicRpcUrl ?? null,
    tokenAddress,
    paymentsAddress,
    async balanceOf(address) {
      const data = ERC20.encodeFunctionData('balanceOf', [getAddress(address)]);
      const [balance] = ERC20.decodeFunctionResult(
        'balanceOf',
        await provider.call({ to: tokenAddress, data }).catch(unavailable),
      );
      return balance as bigint;
    },
    async readTransaction(hash) {
      const receipt = await provider.getTransactionReceipt(hash).catch(unavailable);
      if (!receipt) return { status: 'unknown' };
      if (receipt.status !== 1) return { status: 'failed' };
      const transfers = receipt.logs
        .filter((log) => getAddress(log.address) === tokenAddress && log.topics[0] === transferTopic)
        .map((log) => {
          const parsed = ERC20.parseLog(log)!;
          return {
            from: getAddress(parsed.args[0] as string),
            to: getAddress(parsed.args[1] as string),
            value: parsed.args[2] as bigint,
          };
        });
      return { status: 'mined', transfers, blockNumber: receipt.blockNumber };
    },
    blockNumber,
    async transfersToPayments(from, fromBlock) {
      // No block mined since: nothing to read (a node refuses a range that starts after its end).
      if (fromBlock > (await blockNumber())) return [];
      const logs = await provider
        .getLogs({
          address: tokenAddress,
          topics: [transferTopic, zeroPadValue(getAddress(from), 32), zeroPadValue(paymentsAddress, 32)],
          fromBlock,
          toBlock: 'latest',
        })
        .catch(unavailable);
      return logs.map((log) => ({
        hash: log.transactionHash.toLowerCase(),
        blockNumber: log.blockNumber,
        value: ERC20.parseLog(log)!.args[2] as bigint,
      }));
    },
    async signRefund(to, value) {
      if (!payer) return null;
      const request = await payer.populateTransaction({
        to: tokenAddress,
        data: ERC20.encodeFunctionData('transfer', [getAddress(to), value]),
      });
      const raw = await payer.signTransaction(request);
      return { raw, hash: Transaction.from(raw).hash! };
    },
    async sendSigned(raw) {
      const hash = Transaction.from(raw).hash!;
      if (!(await provider.getTransactionReceipt(hash))) {
        await provider.broadcastTransaction(raw).catch((err: { code?: string; message?: string }) => {
          // Sent before (its nonce is used, or the node knows it): wait for it below.
          if (!/nonce|already known/i.test(String(err?.message)) && err?.code !== 'NONCE_EXPIRED') throw err;
        });
      }
      const receipt = await provider.waitForTransaction(hash, 1, 120_000);
      return receipt?.status === 1 ? 'mined' : 'failed';
    },
    close: () => provider.destroy(),
  };
}
