import { expect, flatImage, signUp, test, uniqueEmail } from './support';

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
  await expect(page.getByRole('alert')).toHaveText(
    'This image is 600 × 300 pixels: it must be square (as wide as it is high).',
  );
  await page.screenshot({ path: 'test-results/screens/avatar-profile.png' });
  await page.getByRole('button', { name: 'Remove avatar' }).click();
  await expect(headerAvatar).toHaveAttribute('data-kind', 'identicon');
  await expect(profileAvatar).toHaveAttribute('data-kind', 'identicon');
});

/**
 * The profile fetch fails on a fresh load: the session retries on its own a second later, so one
 * failure only delays the page. While it keeps failing, the shell says so and offers Retry; the page
 * gives up waiting after a few seconds and offers to load again. Nothing waits forever.
 */
test('a failing profile fetch is retried on its own, and by hand from the shell', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail('retry'), 'retry-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  // Only the fresh loads' profile fetches below fail, not one the sign-up itself still makes.
  await page.waitForLoadState('networkidle');
  let failuresLeft = 1;
  let failed = 0;
  await page.route(/\/api\/users\/[0-9a-f-]{36}$/, (route) => {
    if (failuresLeft <= 0) return route.continue();
    failuresLeft--;
    failed++;
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'unknown', message: 'Unknown error occurred' }),
    });
  });
  // Failing once: the retry a second later brings the profile.
  await page.goto('/profile/collection');
  await expect(page.getByRole('dialog', { name: 'Start your collection' })).toBeVisible({ timeout: 15_000 });
  expect(failed).toBe(1);

  // Failing for longer: the shell says so, and the page offers to load again.
  failuresLeft = 100;
  await page.goto('/profile/collection');
  const banner = page.getByRole('alert').filter({ hasText: 'We couldn’t load your account' });
  await expect(banner).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible({
    timeout: 15_000,
  });
  await page.screenshot({ path: 'test-results/screens/profile-unavailable.png' });
  failuresLeft = 0;
  await banner.getByRole('button', { name: 'Retry' }).click();
  await expect(banner).toBeHidden();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('dialog', { name: 'Start your collection' })).toBeVisible();
});
