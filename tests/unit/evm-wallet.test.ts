import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress, Interface, JsonRpcProvider, parseUnits } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors';
import type { TokenChargeJson } from '#domain/schemas/token';
import { ANVIL_CHAIN_ID, type Anvil, startAnvil } from '../../server/evm/anvil';
import { ensureNfm, type NfmDeployment } from '../../server/evm/nfm';
import { type Eip1193Provider, evmWallet, toWalletError } from '../../src/services/evm';

/**
 * The browser wallet service (src/services/evm.ts): what wallet failures become, the network added
 * to a wallet that lacks it, and the NFM transfer sent through an EIP-1193 wallet backed by a real
 * anvil node (its dev accounts are unlocked, as the journeys' injected wallet uses them).
 */
const codeOf = (err: unknown) => (err instanceof ApiError ? err.body.code : null);

describe('toWalletError', () => {
  const cases: [string, unknown, string | null][] = [
    [
      'EIP-1193 4001 (MetaMask: the user rejected)',
      { code: 4001, message: 'User rejected the request.' },
      'rejected',
    ],
    [
      "ethers' ACTION_REJECTED",
      { code: 'ACTION_REJECTED', action: 'signTypedData', info: { error: { code: 4001 } } },
      'rejected',
    ],
    [
      '4001 wrapped by ethers',
      { code: 'UNKNOWN_ERROR', error: { code: 4001, message: 'rejected' } },
      'rejected',
    ],
    [
      "ethers' INSUFFICIENT_FUNDS",
      { code: 'INSUFFICIENT_FUNDS', message: 'insufficient funds' },
      'insufficient_funds',
    ],
    [
      'a node refusing the fee',
      { code: -32000, message: 'insufficient funds for gas * price + value' },
      'insufficient_funds',
    ],
    [
      "the token's ERC20InsufficientBalance revert",
      { code: 3, message: 'execution reverted', data: `0xe450d38c${'00'.repeat(96)}` },
      'insufficient_funds',
    ],
    [
      '4902: the wallet does not know the network',
      { code: 4902, message: 'Unrecognized chain ID' },
      'chainId',
    ],
    [
      '4902 wrapped by MetaMask Mobile',
      { code: -32603, message: 'Internal error', data: { originalError: { code: 4902 } } },
      'chainId',
    ],
    [
      'typed data for another network than the wallet is on',
      { code: -32603, message: 'Provided chainId "31337" must match the active chainId "1"' },
      'chainId',
    ],
    ['ethers: the network changed under it', { code: 'NETWORK_ERROR', event: 'changed' }, 'chainId'],
    ['anything else stays as it was', { code: -32603, message: 'Internal JSON-RPC error.' }, null],
  ];
  for (const [name, err, code] of cases)
    it(name, () => {
      const mapped = toWalletError(err);
      expect(codeOf(mapped)).toBe(code);
      if (code === null) expect(mapped).toBe(err);
      else expect((mapped as ApiError).body.message).not.toBe('');
    });
});

/** A scripted wallet that knows some networks, as MetaMask does: switching to another is 4902. */
function scriptedWallet(options: { known: number[]; chainId: number; rejectAdd?: boolean }) {
  let chainId = options.chainId;
  const known = new Set(options.known);
  const calls: { method: string; params?: unknown }[] = [];
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      calls.push({ method, params });
      switch (method) {
        case 'eth_requestAccounts':
          return ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'];
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`;
        case 'wallet_switchEthereumChain': {
          const wanted = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16);
          if (!known.has(wanted))
            throw Object.assign(new Error(`Unrecognized chain ID "0x${wanted.toString(16)}".`), {
              code: 4902,
            });
          chainId = wanted;
          return null;
        }
        case 'wallet_addEthereumChain': {
          if (options.rejectAdd) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
          const added = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16);
          known.add(added);
          // MetaMask switches to the network it added.
          chainId = added;
          return null;
        }
      }
      throw new Error(`unexpected ${method}`);
    },
  };
  return { provider, calls, chainId: () => chainId };
}

describe('switching the network', () => {
  const local = { chainName: 'Vitrine local (anvil)', rpcUrl: 'http://127.0.0.1:8545' };

  it('switches a wallet that knows the network', async () => {
    const w = scriptedWallet({ known: [1, 31337], chainId: 1 });
    const account = await evmWallet(() => w.provider).switchNetwork(31337, async () => local);
    expect(account.chainId).toBe(31337);
    expect(w.calls.map((c) => c.method)).not.toContain('wallet_addEthereumChain');
  });

  it('adds the configured network to a wallet that lacks it (4902), then is on it', async () => {
    const w = scriptedWallet({ known: [1], chainId: 1 });
    const account = await evmWallet(() => w.provider).switchNetwork(31337, async () => local);
    expect(account.chainId).toBe(31337);
    expect(w.calls.find((c) => c.method === 'wallet_addEthereumChain')?.params).toEqual([
      {
        chainId: '0x7a69',
        chainName: 'Vitrine local (anvil)',
        rpcUrls: ['http://127.0.0.1:8545'],
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      },
    ]);
  });

  it('without a public RPC URL, or when the buyer refuses to add it, says why', async () => {
    const none = scriptedWallet({ known: [1], chainId: 1 });
    const noUrl = await evmWallet(() => none.provider)
      .switchNetwork(31337, async () => ({ chainName: 'NFM', rpcUrl: null }))
      .catch((e: unknown) => e);
    expect(codeOf(noUrl)).toBe('chainId');
    expect(none.calls.map((c) => c.method)).not.toContain('wallet_addEthereumChain');

    const refusing = scriptedWallet({ known: [1], chainId: 1, rejectAdd: true });
    const refused = await evmWallet(() => refusing.provider)
      .switchNetwork(31337, async () => local)
      .catch((e: unknown) => e);
    expect(codeOf(refused)).toBe('rejected');
    expect(refusing.chainId()).toBe(1);
  });
});

describe('the NFM transfer through a wallet on a real node', () => {
  let anvil: Anvil;
  let node: JsonRpcProvider;
  let dir: string;
  let nfm: NfmDeployment;
  let accounts: string[];
  const sent: string[] = [];
  /** An EIP-1193 wallet that forwards to the node, whose dev accounts are unlocked. */
  const relay: Eip1193Provider = {
    async request({ method, params }) {
      sent.push(method);
      return node.send(method, (params as unknown[]) ?? []);
    },
  };
  const wallet = evmWallet(() => relay);
  const charge = (from: string, amount: bigint): TokenChargeJson =>
    ({
      id: 'c',
      ethAddress: from,
      tokenAmount: amount.toString(),
      tokenAddress: nfm.tokenAddress,
      paymentsAddress: nfm.paymentsAddress,
      chainId: ANVIL_CHAIN_ID,
    }) as TokenChargeJson;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vitrine-wallet-'));
    anvil = await startAnvil({ port: 0 });
    node = new JsonRpcProvider(anvil.url, ANVIL_CHAIN_ID, { staticNetwork: true });
    nfm = await ensureNfm(node, dir);
    accounts = ((await node.send('eth_accounts', [])) as string[]).map((a) => getAddress(a));
  }, 120_000);
  afterAll(async () => {
    node?.destroy();
    await anvil?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the hash the wallet gives, from one eth_sendTransaction, and the transfer is that one', async () => {
    sent.length = 0;
    const amount = parseUnits('12.5', 18);
    const { hash } = await wallet.transfer(charge(accounts[4]!, amount));
    expect(sent).toEqual(['eth_estimateGas', 'eth_sendTransaction']);
    const receipt = await node.getTransactionReceipt(hash);
    expect(receipt?.status).toBe(1);
    const erc20 = new Interface(['event Transfer(address indexed from, address indexed to, uint256 value)']);
    const [log] = receipt!.logs.map((l) => erc20.parseLog(l)!);
    expect([getAddress(log!.args[0]), getAddress(log!.args[1]), log!.args[2]]).toEqual([
      accounts[4],
      getAddress(nfm.paymentsAddress),
      amount,
    ]);
  });

  it('more NFM than the wallet holds is insufficient funds', async () => {
    sent.length = 0;
    const err = await wallet
      .transfer(charge(accounts[5]!, parseUnits('999999999', 18)))
      .catch((e: unknown) => e);
    expect(codeOf(err)).toBe('insufficient_funds');
    // Refused before anything was sent.
    expect(sent).toEqual(['eth_estimateGas']);
  });

  it('tells a transaction of the address not mined yet', async () => {
    expect(await wallet.pendingFrom(accounts[6]!)).toBe(false);
    await node.send('evm_setAutomine', [false]);
    try {
      await wallet.transfer(charge(accounts[6]!, parseUnits('1', 18)));
      expect(await wallet.pendingFrom(accounts[6]!)).toBe(true);
      await node.send('evm_mine', []);
      expect(await wallet.pendingFrom(accounts[6]!)).toBe(false);
    } finally {
      await node.send('evm_setAutomine', [true]);
    }
  });
});
