import type { BlueprintJson } from '#domain/catalog';
import { expect, signUp, test, uniqueEmail } from './support';

/**
 * Favorites: a visitor's heart asks them to sign in; a collector saves an item with the heart on its
 * page, finds it in the profile's Favorites tab (its heart pressed there too), and removes it again,
 * which leaves the tab's empty state.
 */
test('a collector favorites an item and sees it in Favorites', async ({ page }) => {
  test.setTimeout(120_000);
  const { results } = (await (
    await page.request.get('/api/blueprints?states=active&from=1&to=20')
  ).json()) as {
    results: BlueprintJson[];
  };
  const item = results.find((b) => !b.blueprintPackId)!;

  // A visitor: the heart opens the sign-in prompt.
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: 'Save to favorites' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in to continue' })).toBeVisible();
  await page.keyboard.press('Escape');

  await signUp(page, uniqueEmail('favorites'), 'favorites-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();

  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: 'Save to favorites' }).click();
  const saved = page.getByRole('button', { name: 'Remove from favorites' });
  await expect(saved).toHaveAttribute('aria-pressed', 'true');
  await expect(saved).not.toHaveAttribute('aria-busy', 'true');
  await page.screenshot({ path: 'test-results/screens/favorites-item.png', fullPage: true });

  // Every card of the marketplace carries a heart, this item's pressed.
  await page.goto('/marketplace');
  await expect(page.locator('.vt-item-card-wrap .vt-heart').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/favorites-marketplace.png' });

  await page.goto('/profile/favorites');
  const grid = page.getByRole('list', { name: 'Favorites' });
  await expect(grid.getByRole('link', { name: new RegExp(item.title) })).toBeVisible();
  await expect(grid.getByRole('button', { name: 'Remove from favorites' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('link', { name: 'Favorites' })).toHaveClass(/is-active/);
  await page.screenshot({ path: 'test-results/screens/favorites-tab.png', fullPage: true });

  // Removed with its heart, it is gone from the tab once it loads again.
  await grid.getByRole('button', { name: 'Remove from favorites' }).click();
  await expect(grid.getByRole('button', { name: 'Save to favorites' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await page.reload();
  await expect(page.getByRole('heading', { name: 'No favorites yet' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/favorites-empty.png', fullPage: true });
});
