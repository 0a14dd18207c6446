import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { signUp, uniqueEmail } from './support';

/**
 * A new creator opens a storefront through every wizard step: a real PNG logo (optimized by an
 * image job), the banner skipped, dark theme; then lands on the dashboard and sees the public page.
 */
test('a new user creates a storefront with the wizard', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail('creator'), 'creator-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.goto('/create-storefront');
  await expect(page).toHaveURL(/\/create-storefront\/landing$/);
  await page.getByRole('button', { name: 'Get started' }).click();

  const name = `Loops ${Date.now().toString(36)}`;
  await expect(page).toHaveURL(/\/name$/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Use 2 to 50 characters.')).toBeVisible();
  await page.getByLabel('Storefront name').fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/bio$/);
  await page.getByLabel('Bio').fill('Loops and stems recorded at night, one per edition.');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/category$/);
  await page.getByRole('radio', { name: 'Music' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/logo$/);
  const logo = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ee9b00' } })
    .png()
    .toBuffer();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/banner$/);
  await page.getByRole('button', { name: 'Skip for now' }).click();

  await expect(page).toHaveURL(/\/theme$/);
  await page.getByRole('radio', { name: /^Dark/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/email$/);
  await page.getByLabel('Contact email').fill('studio@example.com');
  await page.screenshot({ path: 'test-results/screens/wizard-email.png' });
  await page.getByRole('button', { name: 'Launch' }).click();

  await expect(page).toHaveURL(/\/dashboard/, { timeout: 20_000 });
  const mine = await page.evaluate(async () => {
    const token = localStorage.getItem('vitrine.token') ?? '';
    const res = await fetch('/api/storefronts/me', {
      headers: { authorization: `Bearer ${token.replace(/^"|"$/g, '')}` },
    });
    return res.json();
  });
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
