import { injectWallet } from './evm-wallet';
import { collector, expect, expectAccessible, itemOnSale, test, usd } from './support';

/**
 * Paying a new edition in NFM (NFM_PAYMENTS is on in the journeys) from a browser wallet injected
 * as an extension injects one, backed by the server's anvil node: the wallet starts on another
 * network and is switched, the buyer first rejects the signature, then pays; the server reads the
 * transfer from the chain, the edition is minted on the Flow emulator and "Purchase Complete" shows.
 * In the second journey the wallet does not know the node's network (4902) and is asked to add it;
 * the page then reloads while the wallet sends the NFM: reopened, the checkout resumes the charge
 * from the tab's checkpoint, the server finds the transfer on chain, and nothing is sent again.
 */
// The embedded EVM node's default address (EVM_NODE_PORT).
const rpcUrl = 'http://127.0.0.1:8545';

/** The node's dev accounts (2–9 hold NFM: each journey pays from its own). */
const nodeAccounts = async () =>
  (
    (await (
      await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] }),
      })
    ).json()) as { result: string[] }
  ).result;

test('NFM: another network switched, a signature rejected, then paid and minted', async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await collector(browser, 'nfm');
  const accounts = await nodeAccounts();
  // A funded collector account of the node, on Ethereum mainnet (chain 1) to begin with.
  const wallet = await injectWallet(page, { rpcUrl, account: accounts[2]!, chainId: 1 });
  const item = await itemOnSale(page);
  const price = usd(item.price);
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${price}` }).click();
  const dialog = page.getByRole('dialog', { name: 'How would you like to pay?' });
  await dialog.getByRole('button', { name: /^NFM/ }).click({ timeout: 15_000 });
  const panel = page.getByRole('region', { name: 'Pay with NFM' });
  // $1 is 10 NFM here.
  const nfm = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format(item.price / 10);
  await expect(panel).toContainText(`≈ ${nfm} NFM`);
  await panel.getByRole('checkbox', { name: /purchase agreement/ }).check();
  await expectAccessible(page, 'checkout-token');
  await page.screenshot({ path: 'test-results/screens/checkout-token.png' });
  await panel.getByRole('button', { name: `Pay ${price} in NFM` }).click();

  // The wallet is on another network: switch it.
  await expect(panel.getByRole('alert')).toHaveText(
    'Your wallet is on another network. Switch to the test network to pay.',
  );
  wallet.rejectNext('eth_signTypedData_v4');
  await panel.getByRole('button', { name: 'Switch network' }).click();
  expect(wallet.chainId()).toBe(31337);

  // The buyer rejects the signature in the wallet: nothing is paid, and the charge can be canceled.
  await expect(panel.getByRole('alert')).toHaveText(
    'You rejected the request in your wallet. Nothing was paid.',
  );
  await expect(panel.getByRole('button', { name: 'Cancel payment' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/checkout-token-rejected.png' });
  await panel.getByRole('button', { name: 'Try again' }).click();
  await expect(panel).toContainText('received payment', { timeout: 60_000 });

  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 120_000 });
  await page.screenshot({ path: 'test-results/screens/checkout-token-complete.png', fullPage: true });
  expect(wallet.calls.filter((m) => m === 'eth_sendTransaction')).toHaveLength(1);
});

test('NFM: a wallet without the network adds it; the page reloads while the wallet sends, and the transfer is found, never sent twice', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const page = await collector(browser, 'nfm-reload');
  const accounts = await nodeAccounts();
  // On Ethereum mainnet, and the wallet has never heard of the node's network.
  const wallet = await injectWallet(page, { rpcUrl, account: accounts[3]!, chainId: 1, knownChains: [1] });
  const item = await itemOnSale(page);
  const price = usd(item.price);
  await page.goto(`/nft/${item.id}`);
  const openPanel = async () => {
    await page.getByRole('button', { name: `Buy now · ${price}` }).click();
    await page
      .getByRole('dialog', { name: 'How would you like to pay?' })
      .getByRole('button', { name: /^NFM/ })
      .click({ timeout: 15_000 });
    return page.getByRole('region', { name: 'Pay with NFM' });
  };
  let panel = await openPanel();
  await panel.getByRole('checkbox', { name: /purchase agreement/ }).check();
  await panel.getByRole('button', { name: `Pay ${price} in NFM` }).click();
  await expect(panel.getByRole('alert')).toHaveText(
    'Your wallet is on another network. Switch to the test network to pay.',
  );
  // The wallet answers 4902: the checkout has it add the network (the node's own URL), then it is on it.
  wallet.holdNext('eth_sendTransaction');
  await panel.getByRole('button', { name: 'Switch network' }).click();
  await expect.poll(() => wallet.held.length, { timeout: 60_000 }).toBe(1);
  expect(wallet.added).toEqual([
    {
      chainId: '0x7a69',
      chainName: 'Vitrine local (anvil)',
      rpcUrls: [rpcUrl],
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    },
  ]);
  expect(wallet.chainId()).toBe(31337);
  expect(String(wallet.held[0])).toMatch(/^0x[0-9a-f]{64}$/);

  // The wallet sent the NFM, but the page reloads before it hears the transaction's hash.
  await page.reload();
  panel = await openPanel();
  // The tab's checkpoint resumes the charge; the server finds the transfer on chain.
  await expect(panel).toContainText('received payment', { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 120_000 });
  expect(wallet.calls.filter((m) => m === 'eth_sendTransaction')).toHaveLength(1);
});
