import type { Browser, Page } from '@playwright/test';
import type { BlueprintJson } from '#domain/catalog';
import {
  approveInWallet,
  expect,
  fillBillingForm,
  itemOnSale,
  linkNewWallet,
  signUp,
  test,
  topUpWithCrypto,
  uniqueEmail,
  usd,
  verifyIdentity,
} from './support';

/**
 * Discover, follow and offer on the real chain: a collector buys an edition by card (it is minted to
 * their wallet, unlisted); another collector saves the item to their favorites, then offers FUSD
 * for that edition, signed in the FCL dev wallet; its owner (identity verified) accepts in one
 * transaction. Both see the sale in their profiles and in Activity, and the storefront's volume
 * grows by the offer (its stats are recounted every minute, so the test waits for a count).
 */
async function collector(browser: Browser, tag: string) {
  const page = await (await browser.newContext()).newPage();
  await signUp(page, uniqueEmail(tag), `${tag}-password-1`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  const address = await linkNewWallet(page, `${tag} ${Date.now().toString(36)}`);
  return { page, address };
}

/** Buys one edition of `item` by card (no 3-D Secure) and answers its NFT id once indexed. */
async function buyByCard(page: Page, item: BlueprintJson, address: string) {
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${usd(item.price)}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /Credit card/ }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by card' })).toBeVisible({ timeout: 15_000 });
  await fillBillingForm(page, '4242424242424242');
  await dialog.getByRole('checkbox', { name: /purchase agreement/ }).check();
  await dialog.getByRole('button', { name: `Pay ${usd(item.price)}` }).click();
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 60_000 });
  let nftId = '';
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/nfts?blueprintId=${item.flowBlueprintId}&from=1&to=100`);
        const { results } = (await res.json()) as {
          results: { id: string; owner: { wallet: { walletAddress: string } } }[];
        };
        nftId = results.find((n) => n.owner.wallet.walletAddress === address)?.id ?? '';
        return nftId;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');
  return nftId;
}

interface Stats {
  volumeAllTime: number;
  updatedAt: string | null;
}

/** The storefront's stats once they were counted after `after` (the worker recounts every minute). */
async function statsAfter(page: Page, storefrontId: string, after: number): Promise<Stats> {
  let stats: Stats | null = null;
  await expect
    .poll(
      async () => {
        stats = (await (await page.request.get(`/api/storefronts/${storefrontId}/stats`)).json()) as Stats;
        return stats.updatedAt !== null && Date.parse(stats.updatedAt) > after;
      },
      { timeout: 150_000, intervals: [2_000] },
    )
    .toBe(true);
  return stats!;
}

test('favorite an item, offer on an unlisted edition, the owner accepts: both see the sale', async ({
  browser,
}) => {
  test.setTimeout(420_000);
  const seller = await collector(browser, 'offer-owner');
  const item = await itemOnSale(seller.page);
  const nftId = await buyByCard(seller.page, item, seller.address);
  // The storefront's volume once it counts that purchase, read while the offer is made.
  const before = statsAfter(seller.page, item.storefront!.id, Date.now());

  // The buyer saves the item, and finds it in Favorites.
  const buyer = await collector(browser, 'offer-buyer');
  await buyer.page.goto(`/nft/${item.id}`);
  await buyer.page.getByRole('button', { name: 'Save to favorites' }).click();
  await expect(buyer.page.getByRole('button', { name: 'Remove from favorites' })).toBeVisible();
  await buyer.page.goto('/profile/favorites');
  await expect(buyer.page.getByRole('main')).toContainText(item.title);

  // The buyer offers $30 for the seller's edition (not for sale), with FUSD from a top-up.
  await topUpWithCrypto(buyer.page, 40);
  await buyer.page.goto(`/nft/${nftId}`);
  const offers = buyer.page.getByRole('region', { name: 'Offers' });
  await offers.getByRole('button', { name: 'Make offer' }).click();
  const make = buyer.page.getByRole('dialog', { name: 'Make an offer' });
  await make.getByLabel('Your offer (USD)').fill('30');
  await make.getByLabel('3 days').check();
  await make.getByRole('button', { name: 'Review offer' }).click();
  const review = buyer.page.getByRole('dialog', { name: 'Review your offer' });
  await expect(review).toContainText('$30');
  await review.getByRole('button', { name: 'Make offer' }).click();
  await approveInWallet(buyer.page);
  const made = buyer.page.getByRole('dialog', { name: 'Offer made' });
  await expect(made).toBeVisible({ timeout: 60_000 });
  await buyer.page.screenshot({ path: 'test-results/screens/offer-made.png' });
  await made.getByRole('button', { name: 'Done' }).click();
  await expect(offers.getByRole('list', { name: 'Offers' })).toContainText('$30');

  // The owner verifies their identity (selling needs it) and accepts the offer from the item page.
  await verifyIdentity(seller.page);
  await seller.page.goto(`/nft/${nftId}`);
  const received = seller.page.getByRole('region', { name: 'Offers' }).getByRole('list', { name: 'Offers' });
  await expect(received).toContainText('$30', { timeout: 15_000 });
  await seller.page.screenshot({ path: 'test-results/screens/offer-received.png', fullPage: true });
  const volumeBefore = (await before).volumeAllTime;
  const acceptedAt = Date.now();
  await received.getByRole('button', { name: 'Accept' }).click();
  const accept = seller.page.getByRole('dialog', { name: 'Accept offer' });
  await expect(accept).toContainText('You receive');
  await accept.getByRole('button', { name: 'Accept offer' }).click();
  await approveInWallet(seller.page);
  await expect(seller.page.getByRole('dialog', { name: 'Offer accepted' })).toBeVisible({ timeout: 60_000 });
  await seller.page.screenshot({ path: 'test-results/screens/offer-accepted.png' });

  // The NFT is the buyer's: in their collection, and the offer reads accepted on both profiles.
  await expect
    .poll(
      async () =>
        (await (await buyer.page.request.get(`/api/nfts/${nftId}`)).json()).owner.wallet.walletAddress,
      { timeout: 30_000 },
    )
    .toBe(buyer.address);
  await buyer.page.goto('/profile/collection');
  await expect(buyer.page.getByRole('link', { name: 'Collectibles (1)' })).toBeVisible();
  await buyer.page.goto('/profile/offers');
  await expect(buyer.page.getByRole('main')).toContainText(/accepted/i);
  await seller.page.goto('/profile/offers');
  await expect(seller.page.getByRole('main')).toContainText(/accepted/i);
  await seller.page.screenshot({ path: 'test-results/screens/offers-tab.png', fullPage: true });

  // Both see the accepted offer in their Activity, and the storefront's volume grew by $30.
  for (const page of [buyer.page, seller.page]) {
    await page.goto('/profile/activity');
    const entries = page.getByRole('list', { name: 'Activity' });
    await expect(entries).toContainText('Offer accepted', { timeout: 15_000 });
    await expect(entries).toContainText('$30');
  }
  await buyer.page.screenshot({ path: 'test-results/screens/offer-activity.png', fullPage: true });
  expect((await statsAfter(seller.page, item.storefront!.id, acceptedAt)).volumeAllTime).toBe(
    volumeBefore + 3000,
  );
});
