import { expect, type Page } from '@playwright/test';

/** A fresh address short enough for the forgot-password form (at most 40 characters). */
export const uniqueEmail = (tag: string) =>
  `${tag}.${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}@example.com`;

/** The newest email to an address, from the dev outbox. */
export async function latestEmail(page: Page, to: string) {
  const res = await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(res.ok()).toBeTruthy();
  const { results } = (await res.json()) as {
    results: Array<{ subject: string; text: string; link?: string }>;
  };
  expect(results.length).toBeGreaterThan(0);
  return results[0]!;
}

/** Signs up through the UI: connect → signup → name → welcome (skipped). */
export async function signUp(page: Page, email: string, password: string) {
  await page.goto('/auth/connect');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/auth\/signup$/);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/auth\/name$/);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name (optional)').fill('Lovelace');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/auth\/welcome$/);
}

export async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
}

/**
 * From Settings → Wallet: links a new dev-wallet account to the signed-in user and sets up its
 * collection, approving each step in the FCL dev wallet; answers the wallet address.
 */
export async function linkNewWallet(page: Page, label: string): Promise<string> {
  await page.goto('/settings/wallet');
  await page.getByRole('button', { name: 'Link a wallet' }).click();
  const wallet = page.frameLocator('iframe[src*="/fcl/authn"]');
  await wallet.getByText('Create New Account').click();
  await wallet.locator('input').first().fill(label);
  await wallet.getByRole('button', { name: /create/i }).click();
  await wallet.getByText(label).first().click();
  await expect(page.locator('.vt-dl dd.vt-mono')).toHaveText(/^0x[0-9a-f]{16}$/);
  await page.getByRole('button', { name: 'Set up collection' }).click();
  await approveInWallet(page);
  await expect(page.getByText(/Your collection is ready/)).toBeVisible({ timeout: 30_000 });
  return (await page.locator('.vt-dl dd.vt-mono').textContent())!;
}

/** Approves the transaction the FCL dev wallet shows (its authorization iframe). */
export async function approveInWallet(page: Page) {
  await page
    .frameLocator('iframe[src*="8701"]')
    .getByRole('button', { name: /approve/i })
    .click();
}

/** Calls a development helper of the server (dev tools are on in the browser tests). */
export async function devPost<T>(page: Page, path: string, data: object): Promise<T> {
  const res = await page.request.post(`/api/dev/${path}`, { data });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}
