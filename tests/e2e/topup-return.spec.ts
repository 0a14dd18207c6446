import type { Page } from '@playwright/test';
import { approveInWallet, collector, expect, itemOnSale, test, topUpWithCrypto } from './support';

/**
 * A newcomer's first resale purchase with a crypto top-up, on the real chain and the crypto
 * sandbox: short of FUSD, the collector tops up from the buy dialog, pays on the sandbox's page and
 * lands back on the item with the dialog open on the same listing, which waits for the FUSD and then
 * buys. The edition's History tab then lists its mint and both purchases, with names, edition and
 * how long ago. The same holds for a new edition's checkout: a top-up from its balance rail comes
 * back to the item with the checkout open on that rail.
 */

const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: cents % 100 ? 2 : 0,
  }).format(cents / 100);

interface SeededListing {
  id: string;
  seriesNumber: number;
  owner: { username: string | null; wallet: { walletAddress: string } };
  activeSaleListing: { id: string; price: number };
  blueprint: { title: string; storefront: { name: string } } | null;
}

/** The dearest seeded resale listing (crypto.spec buys the cheapest): a seeded edition with its purchase. */
async function seededListing(page: Page): Promise<SeededListing> {
  const { results } = (await (
    await page.request.get(
      '/api/nfts?status=forSale&sort[column]=activeSaleListing.price&sort[direction]=desc&from=1&to=20',
    )
  ).json()) as { results: SeededListing[] };
  const listing = results.find((n) => n.blueprint && n.owner.username);
  expect(listing, 'a seeded resale listing').toBeTruthy();
  return listing!;
}

async function myUsername(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const token = (localStorage.getItem('vitrine.token') ?? '').replace(/^"|"$/g, '');
    const res = await fetch('/api/users/me', { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { username: string }).username;
  });
}

test('short of FUSD, a collector tops up from a resale listing and lands back on it with the dialog open; the edition’s history lists its mint and purchases', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const page = await collector(browser, 'topupback');
  // $5 in the wallet: short of any listing.
  await topUpWithCrypto(page, 5);
  const nft = await seededListing(page);
  const price = nft.activeSaleListing.price;
  const edition = `#${String(nft.seriesNumber).padStart(2, '0')}`;

  await page.goto(`/nft/${nft.id}`);
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('button', { name: 'Buy now' }).click();
  const dialog = page.getByRole('dialog', { name: `Buy for ${usd(price)}` });
  await expect(dialog.getByText('Insufficient funds')).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByText('$5', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/topup-return-short.png' });
  await dialog.getByRole('button', { name: `Add ${usd(price - 500)} with crypto` }).click();

  // The crypto sandbox's page, on its own origin.
  await expect(
    page.getByRole('heading', { name: `Pay $${((price - 500) / 100).toFixed(2)} USD` }),
  ).toBeVisible({
    timeout: 15_000,
  });
  await page.screenshot({ path: 'test-results/screens/topup-return-hosted.png', fullPage: true });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  // Back on the item, the dialog open on the same listing: it waits for the FUSD, then offers to pay.
  await expect(page).toHaveURL(new RegExp(`/nft/${nft.id}`), { timeout: 15_000 });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/screens/topup-return-waiting.png' });
  await expect(dialog.getByText(`Added ${usd(price - 500)} to your balance.`)).toBeVisible({
    timeout: 90_000,
  });
  // The query that reopened it is gone: a reload would not open it again.
  expect(new URL(page.url()).search).toBe('');
  await expect(dialog.getByRole('button', { name: `Pay ${usd(price)}` })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/topup-return-dialog.png' });

  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: `Pay ${usd(price)}` }).click();
  await approveInWallet(page);
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 60_000 });

  // The seeded edition, now resold: its History tab lists the resale, the primary purchase and the mint.
  const me = await myUsername(page);
  await page.goto(`/nft/${nft.id}/history`);
  const lines = page.getByRole('list', { name: 'History' }).getByRole('listitem');
  await expect(lines).toHaveCount(3);
  await expect(lines.nth(0)).toHaveText(
    new RegExp(`^${me} bought edition ${edition}(less than a minute|1 minute) ago$`),
  );
  await expect(lines.nth(1)).toHaveText(
    new RegExp(`^${nft.owner.username} bought edition ${edition}.+ ago$`),
  );
  await expect(lines.nth(2)).toHaveText(
    new RegExp(
      `^${nft.blueprint!.storefront.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} created edition ${edition}.+ ago$`,
    ),
  );
  await expect(lines.nth(0).locator('img')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/topup-return-history.png', fullPage: true });

  // Settings → Wallet shows what is left of the balance: the $5 and the top-up paid the listing.
  await page.goto('/settings/wallet');
  await expect(page.getByRole('definition').filter({ hasText: 'FUSD' })).toHaveText('$0 FUSD', {
    timeout: 15_000,
  });
  await page.screenshot({ path: 'test-results/screens/topup-return-wallet.png', fullPage: true });
});

test('short of FUSD for a new edition, a top-up from the balance rail comes back to the item with the checkout open on that rail', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const page = await collector(browser, 'railback');
  const item = await itemOnSale(page);
  const price = usd(item.price);
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('button', { name: `Buy now · ${price}` }).click();
  const checkout = page.getByRole('dialog');
  await checkout.getByRole('button', { name: /^Balance/ }).click();
  const topup = checkout.getByRole('region', { name: 'Add funds with crypto' });
  await expect(topup.getByRole('note')).toHaveText('Insufficient funds', { timeout: 15_000 });
  await topup.getByRole('button', { name: `Add ${price} with crypto` }).click();
  await expect(page.getByRole('heading', { name: `Pay $${(item.price / 100).toFixed(2)} USD` })).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  // Back on the item: the checkout is open on the balance rail, which waits for the FUSD.
  await expect(page).toHaveURL(new RegExp(`/nft/${item.id}`), { timeout: 15_000 });
  const rail = page.getByRole('dialog').getByRole('region', { name: 'Pay with your balance' });
  await expect(rail.getByText(`Added ${price} to your balance.`)).toBeVisible({ timeout: 90_000 });
  await expect(rail.getByRole('button', { name: `Pay ${price} from balance` })).toBeVisible();
  await expect(rail.getByRole('note')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/topup-return-balance-rail.png' });
});
