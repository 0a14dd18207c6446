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
 * than the node's, to see the switch).
 */
export interface InjectedWallet {
  account: string;
  /** The network the wallet is on now. */
  chainId(): number;
  rejectNext(method: string): void;
  /** Methods the page asked for, in order. */
  calls: string[];
}

export async function injectWallet(
  page: Page,
  options: { rpcUrl: string; account: string; chainId: number },
): Promise<InjectedWallet> {
  let chainId = options.chainId;
  const rejected = new Set<string>();
  const calls: string[] = [];
  let id = 0;
  await page.exposeBinding('__vitrineTestWallet', async (_source, method: string, params: unknown) => {
    calls.push(method);
    if (rejected.delete(method)) return { error: { code: 4001, message: 'User rejected the request.' } };
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [options.account] };
      case 'eth_chainId':
        return { result: `0x${chainId.toString(16)}` };
      case 'net_version':
        return { result: String(chainId) };
      case 'wallet_switchEthereumChain': {
        chainId = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16);
        return { result: null };
      }
    }
    const res = await fetch(options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
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
        if (method === 'wallet_switchEthereumChain')
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
    calls,
  };
}
