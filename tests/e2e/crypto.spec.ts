import type { Browser, Page } from '@playwright/test';
import type { BlueprintJson } from '#domain/catalog';
import {
  approveInWallet,
  expect,
  expectAccessible,
  linkNewWallet,
  signUp,
  test,
  uniqueEmail,
} from './support';

/**
 * Paying a new edition with crypto: the checkout opens a hosted charge at the crypto sandbox (its
 * own origin, as Coinbase Commerce's page would be); the buyer pays there, the sandbox's signed
 * webhook tells the server, the edition is minted on the emulator and "Purchase Complete" shows.
 * Canceling on the hosted page lands on /coinbasecanceled/{id}.
 */
async function collector(browser: Browser, tag: string) {
  const page = await (await browser.newContext()).newPage();
  await signUp(page, uniqueEmail(tag), `${tag}-password-1`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  const address = await linkNewWallet(page, `${tag} ${Date.now().toString(36)}`);
  return { page, address };
}

const taken = new Set<string>();
/** A seeded priced blueprint on sale now that nobody resells, not in a pack. */
async function itemOnSale(page: Page): Promise<BlueprintJson> {
  const { results } = (await (
    await page.request.get('/api/blueprints?states=active&from=1&to=100')
  ).json()) as {
    results: BlueprintJson[];
  };
  for (const b of results) {
    if (taken.has(b.id) || b.blueprintPackId || b.quantityAvailable < 5 || b.type !== 'standalone') continue;
    if (b.price === 0 || (b.availableTime && new Date(b.availableTime).getTime() > Date.now())) continue;
    const listings = await page.request.get(`/api/nfts?blueprintId=${b.flowBlueprintId}&status=forSale`);
    if (((await listings.json()) as { total: number }).total > 0) continue;
    taken.add(b.id);
    return b;
  }
  throw new Error('no priced blueprint on sale in the seed');
}

const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: cents % 100 ? 2 : 0,
  }).format(cents / 100);

/** From the item page to the crypto sandbox's hosted page. */
async function toHostedPage(page: Page, item: BlueprintJson) {
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${usd(item.price)}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /^Crypto/ }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay with crypto' })).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByRole('note')).toContainText('unsupported network');
  await expectAccessible(page, 'checkout-crypto');
  await dialog.getByRole('checkbox', { name: /purchase agreement/ }).check();
  await dialog.getByRole('button', { name: `Pay ${usd(item.price)} with crypto` }).click();
  await expect(page.getByRole('heading', { name: `Pay $${(item.price / 100).toFixed(2)} USD` })).toBeVisible({
    timeout: 15_000,
  });
}

test('a new edition paid with crypto on the hosted page is minted: "Purchase Complete"', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page } = await collector(browser, 'cryptobuyer');
  const item = await itemOnSale(page);
  await toHostedPage(page, item);
  await page.screenshot({ path: 'test-results/screens/crypto-hosted-page.png', fullPage: true });
  await page.getByRole('radio', { name: /USD Coin|USDC/ }).check();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/ordercomplete/${item.id}`), { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: 'test-results/screens/crypto-purchase-complete.png', fullPage: true });
});

test('a crypto charge canceled on the hosted page lands on /coinbasecanceled/{id}, nothing reserved', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page } = await collector(browser, 'cryptocancel');
  const item = await itemOnSale(page);
  await toHostedPage(page, item);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(/\/coinbasecanceled\//, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Purchase canceled' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Your crypto purchase was canceled. You were not charged.')).toBeVisible();
  await expectAccessible(page, 'crypto-canceled');
  const fresh = (await (await page.request.get(`/api/blueprints/${item.id}`)).json()) as BlueprintJson;
  expect(fresh.quantityAvailable).toBe(item.quantityAvailable);
  // Pressing buy again starts afresh: the canceled charge is not pending.
  await page.getByRole('link', { name: 'Back to the item' }).click();
  await page.getByRole('button', { name: `Buy now · ${usd(item.price)}` }).click();
  await expect(
    page.getByRole('dialog').getByRole('heading', { name: 'How would you like to pay?' }),
  ).toBeVisible({
    timeout: 15_000,
  });
});

test('a crypto top-up funds the FUSD balance, which then buys a resale listing', async ({ browser }) => {
  test.setTimeout(240_000);
  const { page, address } = await collector(browser, 'topup');
  await page.goto('/settings/wallet');
  const panel = page.getByRole('region', { name: 'Add funds with crypto' });
  await panel.getByLabel('Amount (USD)').fill('0.50');
  await panel.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(panel.getByRole('alert')).toHaveText('Top up at least $1.');
  await panel.getByLabel('Amount (USD)').fill('60');
  await expectAccessible(page, 'wallet-topup');
  await panel.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByRole('heading', { name: 'Pay $60.00 USD' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/wallet\?topup=/, { timeout: 15_000 });
  await expect(page.getByText('Added $60 to your balance.')).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: 'test-results/screens/wallet-topup-added.png', fullPage: true });

  // The cheapest resale listing of the seeded world, bought with the balance.
  const { results } = (await (
    await page.request.get(
      '/api/nfts?status=forSale&sort[column]=activeSaleListing.price&sort[direction]=asc&from=1&to=5',
    )
  ).json()) as {
    results: {
      id: string;
      owner: { wallet: { walletAddress: string } };
      activeSaleListing: { price: number };
    }[];
  };
  const listing = results.find(
    (n) => n.activeSaleListing.price <= 6000 && n.owner.wallet.walletAddress !== address,
  )!;
  expect(listing).toBeTruthy();
  await page.goto(`/nft/${listing.id}`);
  await page.getByRole('button', { name: 'Buy now' }).click();
  const buy = page.getByRole('dialog', { name: `Buy for ${usd(listing.activeSaleListing.price)}` });
  await buy.getByRole('checkbox').check({ timeout: 15_000 });
  await buy.getByRole('button', { name: `Pay ${usd(listing.activeSaleListing.price)}` }).click();
  await approveInWallet(page);
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 60_000 });
});

test('short of the price, the balance rail tops up with crypto, then the balance buys a new edition', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { page } = await collector(browser, 'balance');
  const item = await itemOnSale(page);
  const price = usd(item.price);
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${price}` }).click();
  const dialog = page.getByRole('dialog');
  const balanceRail = dialog.getByRole('button', { name: /^Balance/ });
  await expect(balanceRail).toContainText('$0 FUSD in your wallet', { timeout: 15_000 });
  await expect(balanceRail).toContainText('Insufficient funds');
  await page.screenshot({ path: 'test-results/screens/checkout-balance-methods.png' });
  await balanceRail.click();

  // The crypto top-up panel: the shortfall, paid on the crypto sandbox's page.
  const topup = dialog.getByRole('region', { name: 'Add funds with crypto' });
  await expect(topup.getByRole('note')).toHaveText('Insufficient funds', { timeout: 15_000 });
  await expectAccessible(page, 'checkout-balance-topup');
  await page.screenshot({ path: 'test-results/screens/checkout-balance-topup.png' });
  await topup.getByRole('button', { name: `Add ${price} with crypto` }).click();
  await expect(page.getByRole('heading', { name: `Pay $${(item.price / 100).toFixed(2)} USD` })).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  // Back on the item, the checkout open on the balance rail: it waits for the top-up's FUSD.
  await expect(page).toHaveURL(new RegExp(`/nft/${item.id}`), { timeout: 15_000 });
  const returned = dialog.getByRole('region', { name: 'Pay with your balance' });
  await expect(returned.getByText(`Added ${price} to your balance.`)).toBeVisible({ timeout: 90_000 });

  // The balance now covers the price (the methods show it too) and pays on chain from the wallet.
  await returned.getByRole('button', { name: 'Back' }).click();
  await expect(balanceRail).toContainText(`${price} FUSD in your wallet`, { timeout: 15_000 });
  await expect(balanceRail).not.toContainText('Insufficient funds');
  await balanceRail.click();
  const pay = dialog.getByRole('region', { name: 'Pay with your balance' });
  await pay.getByRole('checkbox', { name: /purchase agreement/ }).check({ timeout: 15_000 });
  await expectAccessible(page, 'checkout-balance');
  await page.screenshot({ path: 'test-results/screens/checkout-balance.png' });
  await pay.getByRole('button', { name: `Pay ${price} from balance` }).click();
  await approveInWallet(page);
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 90_000 });
  await page.screenshot({ path: 'test-results/screens/checkout-balance-complete.png', fullPage: true });
});

test('a new edition paid by card in the on-ramp widget is minted: "Purchase Complete"', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page } = await collector(browser, 'onramp');
  const item = await itemOnSale(page);
  const price = usd(item.price);
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${price}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /^Card to crypto/ }).click();
  const panel = dialog.getByRole('region', { name: 'Card to crypto' });
  await panel.getByRole('checkbox', { name: /purchase agreement/ }).check({ timeout: 15_000 });
  await expectAccessible(page, 'checkout-onramp');
  await panel.getByRole('button', { name: `Pay ${price} by card` }).click();
  // The provider's widget (the on-ramp sandbox's origin) opens over the page.
  const widget = page.frameLocator('iframe[src*="/widget"]');
  await expect(widget.getByRole('heading', { name: 'Pay with card' })).toBeVisible({ timeout: 15_000 });
  await expect(widget.getByText(item.title).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/checkout-onramp-widget.png' });
  await widget.getByRole('button', { name: `Pay $${(item.price / 100).toFixed(2)}` }).click();
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 90_000 });
  await page.screenshot({ path: 'test-results/screens/checkout-onramp-complete.png', fullPage: true });
});
