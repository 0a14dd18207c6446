import type { Page } from '@playwright/test';
import type { BlueprintJson, PackJson } from '#domain/catalog';
import { collector, expect, fillBillingForm, test, usd } from './support';

/**
 * A newcomer's first purchases: the seeded "Booster Pack: Series 1" bought by card, whose receipt
 * is the pack, its price and every card it minted with its edition; a card that comes only in that
 * pack, which names the pack, links to it and shows its price (never "Free"); and a free item
 * claimed once, whose page then says Claimed with a link to the edition instead of a second claim.
 */

/** The seeded pack, with its cards, as the API answers it. */
async function boosterPack(page: Page): Promise<PackJson> {
  const { results } = (await (await page.request.get('/api/blueprint-packs?from=1&to=50')).json()) as {
    results: PackJson[];
  };
  const found = results.find((p) => p.title === 'Booster Pack: Series 1');
  if (!found) throw new Error('no Booster Pack: Series 1 in the seed');
  return (await (await page.request.get(`/api/blueprint-packs/${found.id}`)).json()) as PackJson;
}

/** A free item on sale now (price 0, not in a pack, live, editions to spare) that nobody resells. */
async function freeItem(page: Page): Promise<BlueprintJson> {
  const { results } = (await (
    await page.request.get('/api/blueprints?states=active&max=0&from=1&to=100')
  ).json()) as { results: BlueprintJson[] };
  for (const b of results) {
    if (b.price !== 0 || b.blueprintPackId || b.type !== 'standalone' || b.quantityAvailable < 5) continue;
    if (b.availableTime && new Date(b.availableTime).getTime() > Date.now()) continue;
    const listings = await page.request.get(`/api/nfts?blueprintId=${b.flowBlueprintId}&status=forSale`);
    if (((await listings.json()) as { total: number }).total > 0) continue;
    return b;
  }
  throw new Error('no free blueprint on sale in the seed');
}

test('a new collector buys the booster pack by card: the receipt lists the pack, its price and every card', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const page = await collector(browser, 'packbuyer');
  const pack = await boosterPack(page);
  expect(pack.price).toBe(1500);
  expect(pack.blueprints).toHaveLength(3);

  await page.goto(`/nft/${pack.id}`);
  await page.getByRole('button', { name: `Buy now · ${usd(pack.price)}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /Credit card/ }).click({ timeout: 15_000 });
  await expect(dialog.getByRole('heading', { name: 'Pay by card' })).toBeVisible({ timeout: 15_000 });
  await fillBillingForm(page, '4242424242424242');
  await dialog.getByRole('checkbox', { name: /purchase agreement/ }).check();
  await dialog.getByRole('button', { name: `Pay ${usd(pack.price)}` }).click();

  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 90_000 });
  const receipt = page.getByRole('region', { name: 'Your purchase' });
  await expect(page.getByText('Thank you! The 3 collectibles are yours.')).toBeVisible();
  await expect(receipt.getByText('Booster Pack: Series 1', { exact: true })).toBeVisible();
  await expect(receipt.locator('dt', { hasText: 'Total' }).locator('+ dd')).toHaveText('$15');
  const cards = receipt.getByRole('list', { name: 'Cards in this pack' }).getByRole('listitem');
  await expect(cards).toHaveCount(3);
  // Every card of the pack, each with the edition minted.
  const lines = await cards.allTextContents();
  expect(lines.map((line) => line.replace(/ Edition #\d{2,}$/, '')).sort()).toEqual(
    pack.blueprints.map((card) => card.title).sort(),
  );
  for (const line of lines) expect(line).toMatch(/ Edition #\d{2,}$/);
  await page.screenshot({ path: 'test-results/screens/packs-receipt.png', fullPage: true });

  // Each card links to its edition, now in the buyer's collection.
  const firstTitle = lines[0]!.replace(/ Edition #\d{2,}$/, '');
  await cards.first().getByRole('link', { name: firstTitle }).click();
  await expect(page).toHaveURL(/\/nft\/\d+/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(firstTitle);
});

test('a card that comes only in the pack names the pack, links to it and shows its price, never Free', async ({
  page,
}) => {
  const pack = await boosterPack(page);
  const card = pack.blueprints[0]!;

  // In the marketplace it reads at its pack's price, marked as a pack's card, with the pack's editions left.
  await page.goto('/marketplace?q=Booster');
  const tile = page.getByRole('link', { name: new RegExp(card.title) });
  await expect(tile).toContainText('$15 · in pack');
  await expect(tile).toContainText(`${pack.quantityAvailable}/${pack.quantity}`);
  await expect(tile).not.toContainText(/free/i);
  await page.screenshot({ path: 'test-results/screens/packs-marketplace.png', fullPage: true });
  // The default sort (cheapest first) starts with free items only: no card of a pack among them.
  await page.goto('/marketplace');
  const first = page.getByRole('list', { name: 'Items' }).getByRole('listitem').first();
  await expect(first).toContainText('free');
  await expect(first).not.toContainText('in pack');

  await page.goto(`/nft/${card.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(card.title);
  const price = page.getByText('Only in', { exact: true }).locator('..');
  await expect(price).toHaveText('Only in Booster Pack: Series 1 $15');
  const fresh = (await (await page.request.get(`/api/blueprint-packs/${pack.id}`)).json()) as PackJson;
  await expect(page.getByText('Available', { exact: true }).locator('..')).toHaveText(
    `Available ${fresh.quantityAvailable}/${fresh.quantity}`,
  );
  await expect(page.locator('article.vt-nft').getByText(/free/i)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Buy now|Claim/ })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/packs-card-page.png', fullPage: true });
  await page.getByRole('link', { name: 'Get Booster Pack: Series 1 · $15' }).click();
  await expect(page).toHaveURL(new RegExp(`/nft/${pack.id}`));
  await expect(page.getByRole('button', { name: 'Buy now · $15' })).toBeVisible();
});

test('a claimed free item says Claimed, links to the edition and offers no second claim', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const page = await collector(browser, 'packclaimer');
  const item = await freeItem(page);
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: 'Claim for free' }).click();
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 60_000 });

  await page.goto(`/nft/${item.id}`);
  await expect(page.getByRole('button', { name: 'Claimed' })).toBeDisabled({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Claim for free' })).toHaveCount(0);
  const edition = page.getByRole('link', { name: /^Your edition #\d+$/ });
  await expect(edition).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/packs-claimed.png', fullPage: true });
  await edition.click();
  await expect(page).toHaveURL(/\/nft\/\d+/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(item.title);
});
