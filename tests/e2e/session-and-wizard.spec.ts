import { expect, flatImage, signUp, test, uniqueEmail } from './support';

/**
 * A newcomer's first steps, exactly right: the storefront wizard refuses an image at its own step
 * with the rule it breaks (not after Launch), and a save that a session ended elsewhere refused
 * sends to sign-in with the reason and comes back with the edit.
 */

test('the wizard refuses an 80 × 80 logo at the logo step, naming the rule', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail('logo'), 'creator-password-1');
  await page.goto('/create-storefront');
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.getByLabel('Storefront name').fill(`Tiny Logo ${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Bio').fill('Loops and stems recorded at night.');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/category$/);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(/\/logo$/);
  // The rule is stated under the picker before anything is chosen.
  await expect(page.getByText('PNG or JPG, at least 100 × 100 pixels, up to 1 MB.')).toBeVisible();

  await page.locator('input[type="file"]').setInputFiles({
    name: 'tiny.png',
    mimeType: 'image/png',
    buffer: await flatImage(80, 80, '#005f73', 'png'),
  });
  const rule = 'This image is 80 × 80 pixels: it must be at least 100 × 100.';
  await expect(page.getByRole('alert')).toHaveText(rule);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/logo$/);
  await expect(page.getByRole('alert')).toHaveText(rule);
  await page.screenshot({ path: 'test-results/screens/wizard-logo-refused.png', fullPage: true });

  // A logo that passes goes on to the banner step.
  await page.locator('input[type="file"]').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: await flatImage(400, 400, '#005f73', 'png'),
  });
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/banner$/);
});

test('a save after the session ended elsewhere signs in again with the reason and keeps the edit', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = uniqueEmail('draft');
  await signUp(page, email, 'settings-password-1');
  await page.goto('/settings/account');
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('First name').fill('Augusta');
  await page.getByLabel('Last name').fill('King');

  // The session ends elsewhere: the same session is logged out through the API (its token and
  // refresh cookie stop working), as another tab logging out does.
  const token = await page.evaluate(() => localStorage.getItem('vitrine.token'));
  const ended = await page.request.delete('/api/auth/sessions/current', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(ended.status()).toBe(204);

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/auth\/connect$/);
  await expect(page.getByRole('status')).toHaveText('Your session has expired. Please log in again.');
  await page.screenshot({
    path: 'test-results/screens/session-expired-sign-in.png',
    fullPage: true,
    animations: 'disabled',
  });

  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill('settings-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();

  // Back where the save was made, in edit mode, with the edited values.
  await expect(page).toHaveURL(/\/settings\/account$/);
  await expect(page.getByLabel('First name')).toHaveValue('Augusta');
  await expect(page.getByLabel('Last name')).toHaveValue('King');
  await expect(page.getByLabel('First name')).toBeEditable();
  await page.screenshot({ path: 'test-results/screens/session-expired-draft-restored.png', fullPage: true });

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Augusta');
  // Saved: the draft is forgotten, so the page opens as it is on the next visit.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Augusta');
  await expect(page.getByLabel('First name')).not.toBeEditable();
});
