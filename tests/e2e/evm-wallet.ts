import type { Page } from '@playwright/test';

/**
 * A browser wallet for the journeys, injected the way an extension injects one: a script that runs
 * before the page's own defines `window.ethereum` (EIP-1193 `request`, `on`/`removeListener`) and
 * announces it (EIP-6963); its requests go to the extension's side (here the test, through an
 * exposed binding), which answers accounts and network itself and forwards the rest to the EVM
 * node, whose dev accounts are unlocked (signatures and transactions are the node's own).
 *
 * The test plays the person: `rejectNext(method)` refuses the next such request (code 4001, as
 * MetaMask does when the user clicks Reject), and the wallet starts on `chainId` (another network
 * than the node's, to see the switch). With `knownChains`, switching to another network is 4902
 * (as MetaMask answers for a network it lacks) until `wallet_addEthereumChain` adds it, which also
 * switches to it, as MetaMask does. `holdNext(method)` forwards the next such request to the node
 * but never answers the page (the page reloads while the wallet is still sending).
 */
export interface InjectedWallet {
  account: string;
  /** The network the wallet is on now. */
  chainId(): number;
  rejectNext(method: string): void;
  holdNext(method: string): void;
  /** What the node answered to the held requests (a transaction hash for eth_sendTransaction). */
  held: unknown[];
  /** Methods the page asked for, in order. */
  calls: string[];
  /** The networks the page asked the wallet to add (wallet_addEthereumChain's parameter). */
  added: unknown[];
}

export async function injectWallet(
  page: Page,
  options: { rpcUrl: string; account: string; chainId: number; knownChains?: number[] },
): Promise<InjectedWallet> {
  let chainId = options.chainId;
  const known = options.knownChains ? new Set(options.knownChains) : null;
  const rejected = new Set<string>();
  const holding = new Set<string>();
  const held: unknown[] = [];
  const added: unknown[] = [];
  const calls: string[] = [];
  let id = 0;
  const forward = async (method: string, params: unknown) => {
    const res = await fetch(options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
    });
    return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  };
  await page.exposeBinding('__vitrineTestWallet', async (_source, method: string, params: unknown) => {
    calls.push(method);
    if (rejected.delete(method)) return { error: { code: 4001, message: 'User rejected the request.' } };
    if (holding.delete(method)) {
      // Sent on; the answer never reaches the page.
      const body = await forward(method, params);
      held.push(body.result ?? body.error);
      return new Promise(() => {});
    }
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [options.account] };
      case 'eth_chainId':
        return { result: `0x${chainId.toString(16)}` };
      case 'net_version':
        return { result: String(chainId) };
      case 'wallet_switchEthereumChain': {
        const wanted = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16);
        if (known && !known.has(wanted))
          return { error: { code: 4902, message: `Unrecognized chain ID "0x${wanted.toString(16)}".` } };
        chainId = wanted;
        return { result: null };
      }
      case 'wallet_addEthereumChain': {
        const network = (params as [{ chainId: string }])[0];
        added.push(network);
        const wanted = Number.parseInt(network.chainId, 16);
        known?.add(wanted);
        chainId = wanted;
        return { result: null };
      }
    }
    const body = await forward(method, params);
    return body.error ? { error: body.error } : { result: body.result };
  });
  await page.addInitScript(() => {
    type Answer = { result?: unknown; error?: { code: number; message: string } };
    const relay = (window as unknown as { __vitrineTestWallet: (m: string, p: unknown) => Promise<Answer> })
      .__vitrineTestWallet;
    const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    const provider = {
      isMetaMask: false,
      async request({ method, params }: { method: string; params?: unknown }) {
        const answer = await relay(method, params);
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        if (method === 'wallet_switchEthereumChain' || method === 'wallet_addEthereumChain')
          for (const listener of listeners.get('chainChanged') ?? [])
            listener((params as [{ chainId: string }])[0].chainId);
        return answer.result;
      },
      on(event: string, listener: (...args: unknown[]) => void) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener);
        return provider;
      },
      removeListener(event: string, listener: (...args: unknown[]) => void) {
        listeners.get(event)?.delete(listener);
        return provider;
      },
    };
    Object.defineProperty(window, 'ethereum', { value: provider, configurable: true });
    const info = {
      uuid: '6f1d2f4e-1c1b-4d1a-9a0e-7a1f0c0d2b3e',
      name: 'Vitrine test wallet',
      icon: 'data:,',
      rdns: 'test.vitrine.wallet',
    };
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
      );
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
  });
  return {
    account: options.account,
    chainId: () => chainId,
    rejectNext: (method) => rejected.add(method),
    holdNext: (method) => holding.add(method),
    held,
    calls,
    added,
  };
}
