import type { Browser } from '@playwright/test';
import {
  approveInWallet,
  devPost,
  expect,
  linkNewWallet,
  signUp,
  test,
  uniqueEmail,
  verifyIdentity,
} from './support';

/**
 * Identity verification through the Veriff-shaped sandbox: a collector who owns an NFT is asked to
 * retry once, is approved on the second try, comes back Verified and lists the NFT; a collector
 * who owns nothing is stopped by the blocking modal, and the button stays "Begin KYC"; a collector
 * who is declined disputes it through support, an admin reopens it in the back office (the audit
 * log shows it), and the collector may begin again.
 */
async function collector(browser: Browser, tag: string) {
  const page = await (await browser.newContext()).newPage();
  const email = uniqueEmail(tag);
  await signUp(page, email, `${tag}-password-1`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  const address = await linkNewWallet(page, `${tag} ${Date.now().toString(36)}`);
  return { page, address, email };
}

test('a collector verifies on the sandbox page (after one retry), comes back Verified and lists an NFT', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page, address } = await collector(browser, 'kyc');
  await devPost(page, 'nfts', { walletAddress: address, title: 'Salt Flats' });

  await page.goto('/settings/account');
  await page.getByRole('button', { name: 'Begin KYC' }).click();
  const modal = page.getByRole('dialog', { name: 'Verify your identity' });
  await modal.getByLabel('Last name').fill('');
  await modal.getByRole('button', { name: 'Continue to Veriff' }).click();
  await expect(modal.getByText('Please enter a last name')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/kyc-name-modal.png' });
  await modal.getByLabel('Last name').fill('Lovelace');
  await modal.getByRole('button', { name: 'Continue to Veriff' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your identity', level: 1 })).toBeVisible({
    timeout: 15_000,
  });
  await page.screenshot({ path: 'test-results/screens/kyc-sandbox-page.png' });
  await page.getByRole('button', { name: 'Request resubmission' }).click();
  await page.waitForURL(/\/settings\/account\?kyc=returned$/);
  await expect(page.getByRole('button', { name: 'Unverified, Retry KYC' })).toBeEnabled();

  await verifyIdentity(page, 'Approve', 'Unverified, Retry KYC');
  await expect(page.getByRole('button', { name: 'Verified' })).toBeDisabled();
  await page.screenshot({ path: 'test-results/screens/kyc-verified.png' });

  await page.goto('/profile/collection');
  await page.getByRole('button', { name: /Salt Flats/ }).click();
  await page
    .getByRole('dialog', { name: 'Salt Flats' })
    .getByRole('button', { name: 'List for sale' })
    .click();
  const listDialog = page.getByRole('dialog', { name: 'List for sale' });
  await listDialog.getByLabel('Price (USD)').fill('40');
  await listDialog.getByRole('button', { name: 'List for sale' }).click();
  await approveInWallet(page);
  await expect(page.getByRole('heading', { name: 'Listed for sale' })).toBeVisible({ timeout: 30_000 });
});

test('a collector who owns nothing gets the blocking modal and no session', async ({ browser }) => {
  const { page } = await collector(browser, 'kyc-empty');
  await page.goto('/settings/account');
  await page.getByRole('button', { name: 'Begin KYC' }).click();
  const modal = page.getByRole('dialog', { name: 'Collect first' });
  await expect(modal.getByText('Collect an NFT first')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/kyc-blocked.png', animations: 'disabled' });
  await modal.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('button', { name: 'Begin KYC' })).toBeEnabled();
});

test('a declined collector is reopened by an admin in the back office and may begin again', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page, address, email } = await collector(browser, 'kyc-declined');
  await devPost(page, 'nfts', { walletAddress: address, title: 'Dune Sea' });
  await verifyIdentity(page, 'Decline');
  await expect(page.getByRole('button', { name: 'Rejected' })).toBeDisabled();

  const admin = await (await browser.newContext()).newPage();
  await admin.goto('/admin/kyc');
  await admin.getByLabel('Email').fill('admin@vitrine.test');
  await admin.getByRole('button', { name: 'Continue' }).click();
  await admin.getByLabel('Password', { exact: true }).fill('vitrine-demo');
  await admin.getByRole('button', { name: 'Sign in' }).click();
  await expect(admin).toHaveURL(/\/admin\/kyc$/);
  await admin.getByRole('searchbox').fill(email);
  await admin.getByRole('button', { name: 'Search', exact: true }).click();
  const row = admin.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('declined');
  await row.getByRole('button', { name: 'Reopen' }).click();
  await expect(row).toContainText('unknown');
  await expect(row.getByRole('button', { name: 'Reopen' })).toHaveCount(0);
  await admin.getByRole('link', { name: 'Audit log' }).click();
  const logged = admin.getByRole('row').filter({ hasText: 'kyc.reopen' }).first();
  await expect(logged).toContainText('admin@vitrine.test');
  await expect(logged).toContainText('status: declined → unknown');
  await admin.screenshot({ path: 'test-results/screens/kyc-reopened-audit.png' });

  await page.goto('/settings/account');
  await expect(page.getByRole('button', { name: 'Begin KYC' })).toBeEnabled();
  await verifyIdentity(page, 'Approve');
  await expect(page.getByRole('button', { name: 'Verified' })).toBeDisabled();
});
