import { readFileSync } from 'node:fs';
import { expect, expectAccessible, test } from './support';

/**
 * A seeded creator with sales (Brush & Pixel) reads the sales table, opens a sale's fees, exports
 * the payout ledger as CSV, then requests a payout on the payouts page and cancels it.
 */
test('a creator reads sales, exports the ledger and requests and cancels a payout', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/dashboard/sales');
  await expect(page).toHaveURL(/\/auth\/connect$/);
  await page.getByLabel('Email').fill('noor@brush-pixel.vitrine.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill('vitrine-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/sales/);
  // Every dashboard panel is accessible (axe-core: no serious or critical violation).
  for (const panel of ['preview', 'account', 'products', 'notifications', 'help', 'sales']) {
    await page.goto(`/dashboard/${panel}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expectAccessible(page, `dashboard-${panel}`);
  }

  await expect(page.getByRole('heading', { level: 1, name: 'Sales' })).toBeVisible();
  // The chart above the table: uPlot draws it; a sentence and a table say the same.
  const chart = page.getByRole('region', { name: 'Sales over time' });
  await expect(chart.locator('canvas').first()).toBeVisible({ timeout: 15_000 });
  await chart.getByRole('button', { name: '1 year' }).click();
  await chart.getByRole('button', { name: 'By week' }).click();
  await expect(chart.getByRole('button', { name: 'By week' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chart).toContainText(/\d+ sales? in the last 365 days, \$[\d,.]+ net\./);
  await chart.getByText('Show the figures').click();
  await expect(chart.getByRole('table')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/sales-chart.png' });
  const rows = page.getByTestId('sale-row');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(2);
  await rows
    .first()
    .getByRole('button', { name: /^Details of / })
    .click();
  const details = page.locator('.vt-sales__details').first();
  // A primary sale: the creator owes no royalty to themselves, only the platform fee.
  await expect(details).not.toContainText('Royalty');
  await expect(details).toContainText('Platform fee');
  await expect(details).toContainText('Total amount');
  await page.screenshot({ path: 'test-results/screens/sales.png' });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^sale_id,purchased_on,blueprint_id,blueprint_title/);
  expect(lines.length).toBe((await rows.count()) + 1);

  await page.getByRole('link', { name: 'Payouts' }).first().click();
  await expect(page).toHaveURL(/\/payouts$/);
  const funds = page.getByRole('region', { name: 'Available funds over time' });
  await expect(funds.locator('canvas').first()).toBeVisible({ timeout: 15_000 });
  await expect(funds).toContainText(/Available funds went from \$[\d,.]+ to \$[\d,.]+ in the last 30 days/);
  const available = page.getByTestId('available');
  await expect(available).toHaveText(/^\$[\d,]+(\.\d\d)?$/);
  const before = await available.textContent();
  await page.getByRole('button', { name: 'Request payout' }).click();
  const form = page.getByRole('dialog', { name: 'Request payout' });
  await form.getByLabel('Amount (USD)').fill('5');
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form.getByRole('alert')).toContainText(/\$10/);
  await form.getByLabel('Amount (USD)').fill('10');
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('button', { name: 'Request payout' })).toBeDisabled();
  await expect(available).not.toHaveText(before!);
  await expectAccessible(page, 'payouts');

  await page.getByRole('button', { name: 'Cancel the payout request of $10' }).click();
  await page.getByRole('button', { name: 'Cancel request' }).click();
  await expect(page.getByRole('button', { name: 'Request payout' })).toBeEnabled();
  await expect(available).toHaveText(before!);
  await expect(page.getByRole('table')).toContainText(/Cancel+ed/);
});
