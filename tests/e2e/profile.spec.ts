import { expect, test } from '@playwright/test';
import { flatImage, signUp, uniqueEmail } from './support';

/**
 * The avatar: chosen in the welcome step of sign-up, shown in the header at once and on the
 * profile; a picture that is not square is refused with the rule; removing it brings the identicon
 * back. The profile's storefront button reads "Create storefront" until there is one.
 */
test('a new user uploads an avatar and sees it in the header', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail('avatar'), 'avatar-password-1');
  const welcome = page.getByRole('heading', { name: 'Welcome to Vitrine!' });
  await expect(welcome).toBeVisible();
  await page.getByLabel('Change avatar', { exact: true }).setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: await flatImage(320, 320, '#e4572e', 'png'),
  });
  const headerAvatar = page.getByRole('button', { name: 'Account menu' }).locator('.vt-avatar');
  await expect(headerAvatar).toHaveAttribute('data-kind', 'image', { timeout: 20_000 });
  await expect(headerAvatar.locator('img')).toHaveAttribute('src', /^\/media\/uploads\/.+\.png$/);
  await page.screenshot({ path: 'test-results/screens/avatar-welcome.png' });
  await page.getByRole('button', { name: 'Skip for now' }).click();

  await page.goto('/profile/collection');
  // A collector with nothing yet is pointed to the marketplace first.
  await expect(page.getByRole('dialog', { name: 'Start your collection' })).toBeVisible();
  await page.keyboard.press('Escape');
  const profileAvatar = page.locator('.vt-avatar-editor .vt-avatar');
  await expect(profileAvatar).toHaveAttribute('data-kind', 'image');
  await expect(page.getByRole('link', { name: 'Create storefront' })).toBeVisible();
  await page.getByLabel('Change avatar', { exact: true }).setInputFiles({
    name: 'wide.png',
    mimeType: 'image/png',
    buffer: await flatImage(600, 300, '#2e86e4', 'png'),
  });
  await expect(page.getByRole('alert')).toHaveText('This image must be square (as wide as it is high).');
  await page.screenshot({ path: 'test-results/screens/avatar-profile.png' });
  await page.getByRole('button', { name: 'Remove avatar' }).click();
  await expect(headerAvatar).toHaveAttribute('data-kind', 'identicon');
  await expect(profileAvatar).toHaveAttribute('data-kind', 'identicon');
});
