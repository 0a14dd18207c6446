import { expect, flatImage, myStorefront, signUp, storefrontWizard, test, uniqueEmail } from './support';

/**
 * A new creator opens a storefront through every wizard step: a real PNG logo (optimized by an
 * image job), the banner skipped, dark theme; then lands on the dashboard and sees the public page.
 */
test('a new user creates a storefront with the wizard', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail('creator'), 'creator-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  const name = `Loops ${Date.now().toString(36)}`;
  await storefrontWizard(page, {
    name,
    category: 'Music',
    logo: { name: 'logo.png', mimeType: 'image/png', buffer: await flatImage(400, 400, '#ee9b00', 'png') },
    theme: 'Dark',
  });
  const mine = await myStorefront(page);
  expect(mine).toMatchObject({
    name,
    category: 'music',
    theme: 'dark',
    bannerUrl: null,
    contactEmail: 'studio@example.com',
  });
  expect(mine.logoUrl).toMatch(/^\/media\/uploads\/.+\.png$/);

  // Back at the wizard, an owner goes to the dashboard; the public page shows the storefront.
  await page.goto('/create-storefront');
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto(`/s/${mine.vanityUrl}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.locator('[data-theme="dark"]')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No NFTs yet' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/wizard-storefront.png' });
});
