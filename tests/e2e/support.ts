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
