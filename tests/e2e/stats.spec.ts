import { expect, test } from './support';

/**
 * Stats and trending as a visitor sees them in the seeded world: the marketplace sorted by Trending,
 * Browse storefronts by volume with each card's volume and floor, and a storefront's stats bar. (The
 * seeded sales are days old, so Home's "Trending now" stays empty there: Home's lists are checked
 * by tests/api/pages.test.ts and tests/views/pages/home.test.tsx.)
 */
test('a visitor sorts by Trending and by volume and sees a storefront’s stats', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/marketplace?sort=trending-desc');
  await expect(page.getByLabel('Sort by')).toHaveValue('trending-desc');
  await expect(page.locator('.vt-item-card').first()).toBeVisible();

  await page.goto('/storefronts?sort=volume');
  await expect(page.getByLabel('Sort by')).toHaveValue('volume');
  const first = page.getByRole('list', { name: 'Storefronts' }).getByRole('listitem').first();
  await expect(first.getByText('Volume', { exact: true })).toBeVisible();
  await expect(first.getByText('Floor', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/stats-storefronts.png', fullPage: true });

  await first.getByRole('heading').getByRole('link').click();
  await page.waitForURL(/\/s\//);
  const bar = page.getByLabel('Sales', { exact: true });
  for (const label of ['Floor', '24h volume', '7d volume', 'All-time volume', 'Owners', 'Listed'])
    await expect(bar.getByText(label, { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/stats-storefront.png', fullPage: true });
});
