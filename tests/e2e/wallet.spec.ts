import type { Page } from '@playwright/test';
import { approveInWallet, expect, logOut, signUp, test, uniqueEmail } from './support';

/**
 * Wallet connect through the real FCL dev wallet (in FCL's iframe) against the embedded emulator:
 * the account proof is signed by the wallet and checked on chain by the server.
 */
async function pickWalletAccount(page: Page, label: string, create: boolean) {
  await page.goto('/auth/connect');
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  const wallet = page.frameLocator('iframe[src*="/fcl/authn"]');
  await expect(
    wallet.getByText('Select an existing account to log in or create a new account.'),
  ).toBeVisible();
  if (create) {
    await wallet.getByText('Create New Account').click();
    await wallet.locator('input').first().fill(label);
    await wallet.getByRole('button', { name: /create/i }).click();
  }
  await wallet.getByText(label, { exact: false }).first().click();
}

test('a new collector connects the dev wallet, registers, and later logs in with the wallet alone', async ({
  page,
}) => {
  const label = `Wallet ${Date.now().toString(36)}`;
  const email = uniqueEmail('flow');
  await pickWalletAccount(page, label, true);

  await expect(page.getByRole('heading', { name: 'Wallet connected' })).toBeVisible();
  await expect(page.getByText(/Your wallet 0x[0-9a-f]{16} is ready/)).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/auth\/name$/);
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name (optional)').fill('Hopper');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/auth\/welcome$/);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/settings/wallet');
  await expect(page.getByText(email)).toBeVisible();
  const address = (await page.locator('.vt-dl dd.vt-mono').textContent())!;
  expect(address).toMatch(/^0x[0-9a-f]{16}$/);
  await page.screenshot({ path: 'test-results/screens/settings-wallet.png' });

  // Logging out on a login-required page remembers it; the wallet login returns there.
  await logOut(page);
  await pickWalletAccount(page, label, false);
  await expect(page).toHaveURL(/\/settings\/wallet$/);
  await expect(page.locator('.vt-dl dd.vt-mono')).toHaveText(address);
});

test('an email account links a wallet in Settings → Wallet', async ({ page }) => {
  const email = uniqueEmail('link');
  await signUp(page, email, 'link-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.goto('/settings/wallet');
  await expect(page.getByText('No wallet linked yet')).toBeVisible();

  await page.getByRole('button', { name: 'Link a wallet' }).click();
  const wallet = page.frameLocator('iframe[src*="/fcl/authn"]');
  const label = `Linked ${Date.now().toString(36)}`;
  await wallet.getByText('Create New Account').click();
  await wallet.locator('input').first().fill(label);
  await wallet.getByRole('button', { name: /create/i }).click();
  await wallet.getByText(label).first().click();

  await expect(page.locator('.vt-dl dd.vt-mono')).toHaveText(/^0x[0-9a-f]{16}$/);
  await expect(page.getByText('Wallet linked')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Relink wallet' })).toBeVisible();

  // A new wallet has no collection yet: set it up with a transaction approved in the wallet.
  await expect(page.getByText(/Collection required/)).toBeVisible();
  await page.getByRole('button', { name: 'Set up collection' }).click();
  await approveInWallet(page);
  await expect(page.getByText(/Your collection is ready/)).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/screens/settings-wallet-collection.png' });
});
