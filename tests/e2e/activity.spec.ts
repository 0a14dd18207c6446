import { expect, test } from './support';

/**
 * Activity: the seeded world's sales and listings show in the marketplace's Activity tab, newest
 * first; a kind filter narrows the list and is kept in the URL; an entry leads to its item.
 */
test('the marketplace’s Activity tab shows seeded sales and listings, filters by kind, and links to items', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/marketplace');
  await page.getByRole('navigation', { name: 'Marketplace' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page).toHaveURL(/\/marketplace\/activity$/);
  const list = page.getByRole('list', { name: 'Activity' });
  const kinds = list.locator('.vt-activity__kind');
  await expect(kinds.first()).toBeVisible();
  await expect(list.getByText('Sale', { exact: true }).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/activity-marketplace.png', fullPage: true });

  await page.getByRole('button', { name: 'Listings', exact: true }).click();
  await expect(page).toHaveURL(/kinds=listing/);
  await expect(page.getByRole('button', { name: 'Listings', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(kinds.first()).toHaveText('Listing');
  await expect(async () => {
    expect(new Set(await kinds.allTextContents())).toEqual(new Set(['Listing']));
  }).toPass();
  await page.screenshot({ path: 'test-results/screens/activity-listings.png', fullPage: true });

  // The filter survives a reload: it lives in the URL.
  await page.reload();
  await expect(kinds.first()).toHaveText('Listing');

  const item = list.locator('.vt-activity__item a').first();
  const title = (await item.textContent())!;
  await item.click();
  await expect(page).toHaveURL(/\/nft\/\d+/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(title);

  // The item's own Activity tab lists that NFT's entries.
  await page.getByRole('navigation', { name: 'Item' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page).toHaveURL(/\/nft\/\d+\/activity$/);
  await expect(
    page.getByRole('list', { name: 'Activity' }).locator('.vt-activity__kind').first(),
  ).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/activity-nft.png', fullPage: true });
});
