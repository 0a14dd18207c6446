import type { Browser, Page } from '@playwright/test';
import { expect, signUp, test, uniqueEmail, usd } from './support';

/**
 * The back office, as the seeded admin: approves and pays a creator's payout request (the creator
 * sees it paid, and the amount no longer in the available funds), and resolves a report a
 * collector sent about a storefront.
 */
async function signIn(browser: Browser, email: string, path: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(path);
  await expect(page).toHaveURL(/\/auth\/connect$/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill('vitrine-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[/$]/g, '\\$&')}$`));
  return page;
}

test('an admin approves and pays a payout request; the creator sees it paid', async ({ browser }) => {
  test.setTimeout(120_000);
  const creator = await signIn(browser, 'aria@aria-sounds.vitrine.test', '/payouts');
  const available = creator.getByTestId('available');
  await expect(available).toHaveText(/^\$[\d,]+(\.\d\d)?$/);
  // "$1,234.50" → 123450 cents.
  const before = Math.round(Number((await available.textContent())!.replace(/[$,]/g, '')) * 100);
  expect(before).toBeGreaterThanOrEqual(1200);
  await creator.getByRole('button', { name: 'Request payout' }).click();
  const form = creator.getByRole('dialog', { name: 'Request payout' });
  await form.getByLabel('Amount (USD)').fill('12');
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form).toBeHidden();

  const admin = await signIn(browser, 'admin@vitrine.test', '/admin/payout-requests');
  await expect(admin.getByRole('heading', { name: 'Payout requests' })).toBeVisible();
  await admin.getByLabel('Status').selectOption('created');
  const row = admin.getByRole('row').filter({ hasText: 'aria@aria-sounds.vitrine.test' });
  await expect(row).toContainText('$12');
  await row.getByRole('button', { name: 'Approve' }).click();
  await admin.getByLabel('Status').selectOption('approved');
  await expect(row).toContainText('approved');
  await row.getByRole('button', { name: 'Mark paid' }).click();
  await admin.getByLabel('Status').selectOption('paid');
  await expect(row.first()).toContainText('paid');
  await admin.screenshot({ path: 'test-results/screens/admin-payouts.png' });

  await creator.reload();
  await expect(creator.getByRole('table')).toContainText('Paid');
  await expect(available).toHaveText(usd(before - 1200));
  await expect(creator.getByRole('button', { name: 'Request payout' })).toBeEnabled();
  await creator.screenshot({ path: 'test-results/screens/admin-payout-creator.png' });
});

test('an admin resolves a report about a storefront', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await (await browser.newContext()).newPage();
  await signUp(page, uniqueEmail('reporter'), 'reporter-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.goto('/s/aria-sounds');
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Report storefront' }).click();
  const dialog = page.getByRole('dialog', { name: /^Report / });
  await dialog.getByRole('radio', { name: 'Offensive' }).check();
  const words = `Rude words on the banner ${Date.now().toString(36)}`;
  await dialog.getByLabel('Description (optional)').fill(words);
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByRole('heading', { name: 'Thanks for your report' })).toBeVisible();

  const admin = await signIn(browser, 'admin@vitrine.test', '/admin/storefront-reports');
  await admin.getByRole('searchbox').fill(words);
  await admin.getByRole('button', { name: 'Search', exact: true }).click();
  const row = admin.getByRole('row').filter({ hasText: words });
  await expect(row).toContainText('created');
  await row.getByRole('button', { name: 'Resolve' }).click();
  await expect(row).toContainText('resolved');
  await expect(row.getByRole('button', { name: 'Resolve' })).toHaveCount(0);
  await admin.screenshot({ path: 'test-results/screens/admin-report.png' });

  // Someone who is not an admin sees that the area is restricted.
  await page.goto('/admin/users');
  await expect(page.getByText(/Restricted area/)).toBeVisible();
});

test('an admin finds an email in the Emails list: whom it went to, when, and that it was sent', async ({
  browser,
}) => {
  const page = await (await browser.newContext()).newPage();
  const email = uniqueEmail('mailed');
  await signUp(page, email, 'mailed-password-1');
  const reset = await page.request.post('/api/auth/logins/passwords/resets', { data: { email } });
  expect(reset.status()).toBe(204);

  const admin = await signIn(browser, 'admin@vitrine.test', '/admin/emails');
  await expect(admin.getByRole('heading', { name: 'Emails' })).toBeVisible();
  await admin.getByRole('searchbox').fill(email);
  const row = admin.getByRole('row').filter({ hasText: email });
  // Sent by the job moments after the request: the list shows it once it is.
  await expect(async () => {
    await admin.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(row).toContainText('sent', { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  await expect(row).toContainText('Reset your Vitrine password');
  // Only a failed email offers Resend.
  await expect(row.getByRole('button', { name: 'Resend' })).toHaveCount(0);
  await admin.screenshot({ path: 'test-results/screens/admin-emails.png' });
});
