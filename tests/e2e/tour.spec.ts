import { expect, expectAccessible, signUp, test, uniqueEmail } from './support';

/**
 * A visitor's tour of the seeded world (issue 4): home → marketplace → filter by price and
 * category → a storefront → an item → its history → share's copy-link toast → report the
 * storefront. Every page passes axe-core without serious or critical violations.
 */
test('a visitor tours the marketplace, a storefront and an item, shares and reports', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByRole('region', { name: 'How Vitrine works' })).toBeVisible();
  await expect(page.locator('details')).toHaveCount(5);
  await expectAccessible(page, 'home');

  await page.getByRole('link', { name: 'Explore the marketplace' }).click();
  await expect(page.getByRole('heading', { name: 'Marketplace', level: 1 })).toBeVisible();
  const answer = (await (
    await page.request.get('/api/blueprints?countAvailable=true&from=1&to=12')
  ).json()) as { total: number; available: number };
  const total = Number((await page.getByText(/items available$/).textContent())!.replace(/\D/g, ''));
  // "N items available" counts what can be bought or claimed now: the seed's sold-out editions and
  // drops to come are listed but not counted.
  expect(total).toBe(answer.available);
  expect(answer.available).toBeGreaterThanOrEqual(40);
  expect(answer.available).toBeLessThan(answer.total);
  await expectAccessible(page, 'marketplace');

  // Price entered in dollars, sent as cents; category Music; applied together.
  await page.getByLabel('Min', { exact: true }).fill('10');
  await page.getByLabel('Max', { exact: true }).fill('100');
  await page.getByRole('checkbox', { name: 'Music' }).check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\?min=10&max=100&categories=music$/);
  // The URL changes before the filtered page arrives: wait for the count to move.
  const count = async () =>
    Number((await page.getByText(/items? available$/).textContent())!.replace(/\D/g, ''));
  await expect.poll(count).toBeLessThan(total);
  const filtered = await count();
  expect(filtered).toBeGreaterThan(0);
  const prices = await page.locator('.vt-item-card__meta strong').allTextContents();
  for (const p of prices) {
    const dollars = Number(p.replace(/[$,]/g, ''));
    expect(dollars).toBeGreaterThanOrEqual(10);
    expect(dollars).toBeLessThanOrEqual(100);
  }
  await expect(page.locator('.vt-item-card__creator').first()).toContainText(
    /Aria Sounds|Night Market Beats/,
  );

  // Sort by price, high to low.
  await page.getByLabel('Sort by').selectOption('price-desc');
  await expect(page).toHaveURL(/sort=price-desc/);
  const shownPrices = async () =>
    (await page.locator('.vt-item-card__meta strong').allTextContents()).map((p) =>
      Number(p.replace(/[$,]/g, '')),
    );
  // Until the sorted page arrives the list is still in ascending order.
  await expect
    .poll(async () => {
      const shown = await shownPrices();
      return shown.length > 0 && shown.every((p, i) => i === 0 || shown[i - 1]! >= p);
    })
    .toBe(true);

  // A storefront, then one of its items with history.
  await page.goto('/storefronts');
  await expect(page.getByRole('heading', { name: 'Storefronts', level: 1 })).toBeVisible();
  await expectAccessible(page, 'storefronts');
  await page.getByRole('link', { name: 'Aria Sounds' }).click();
  await expect(page).toHaveURL(/\/s\/aria-sounds$/);
  await expect(page.locator('[data-theme="dark"]')).toBeVisible();
  await expectAccessible(page, 'storefront');

  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByRole('menuitem', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/s\/aria-sounds$/);

  // A price filter with no match shows "no matching nfts".
  await page.getByLabel('Min', { exact: true }).fill('9000');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('heading', { name: 'No matching NFTs' })).toBeVisible();
  await page.goto('/s/aria-sounds');

  await page.getByRole('list', { name: 'Aria Sounds items' }).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/nft\/[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Edition of');
  const video = page.locator('video');
  if (await video.count()) {
    await expect(video).toHaveJSProperty('loop', true);
    await expect(video).toHaveJSProperty('muted', true);
  }
  await expectAccessible(page, 'item');
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(/\/history$/);
  await expect(page.getByRole('list', { name: 'History' })).toContainText('created this item');
  await expect(page.getByRole('list', { name: 'History' })).toContainText(/ ago/);
  await expect(page.getByRole('list', { name: 'History' })).not.toContainText('about');

  // Unknown items and storefronts are Not Found.
  await page.goto('/nft/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText("We couldn't find what you're looking for")).toBeVisible();
  await page.goto('/s/no-such-shop');
  await expect(page.getByText("We couldn't find what you're looking for")).toBeVisible();

  // Reporting asks a visitor to sign in; a signed-in user sends a report.
  await page.goto('/s/brush-pixel');
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Report storefront' }).click();
  await expect(page.getByRole('dialog')).toContainText(/sign in/i);
  await signUp(page, uniqueEmail('report'), 'report-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.goto('/s/brush-pixel');
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Report storefront' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report Brush & Pixel' });
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText('Please choose a reason.')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Misleading' }).check();
  await dialog.getByLabel('Description (optional)').fill('The previews do not match the items.');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByRole('heading', { name: 'Thanks for your report' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/tour-report.png' });
});
