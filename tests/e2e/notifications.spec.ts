import type { Page } from '@playwright/test';
import type { BlueprintJson } from '#domain/catalog';
import { collector, expect, fillBillingForm, latestEmail, test, usd } from './support';

/**
 * A sale tells its creator: a collector pays one of a seeded creator's items by card; once it is
 * minted, the creator finds "Sold: <item> #<edition>" with the price and their net in the
 * dashboard's notifications, and an email (read in Mailpit) whose unsubscribe link turns sale emails
 * off without signing in; the creator turns them back on in the dashboard.
 */
async function priced(page: Page, vanity: string): Promise<BlueprintJson> {
  const shop = (await (await page.request.get(`/api/storefronts/${vanity}`)).json()) as { id: string };
  const res = await page.request.get(`/api/blueprints?storefrontId=${shop.id}&states=active&from=1&to=100`);
  const { results } = (await res.json()) as { results: BlueprintJson[] };
  // Priced, on sale now, not in a pack, and resold by nobody (the buy button goes straight to the checkout).
  for (const b of results) {
    if (b.blueprintPackId || b.type !== 'standalone' || b.quantityAvailable < 5 || b.price === 0) continue;
    if ([5, 51, 54].includes(b.price % 100)) continue;
    if (b.availableTime && new Date(b.availableTime).getTime() > Date.now()) continue;
    const listings = await page.request.get(`/api/nfts?blueprintId=${b.flowBlueprintId}&status=forSale`);
    if (((await listings.json()) as { total: number }).total === 0) return b;
  }
  throw new Error(`no priced item on sale at ${vanity}`);
}

test('a creator is told of a sale in the dashboard and by email', async ({ browser }) => {
  test.setTimeout(180_000);
  const buyer = await collector(browser, 'notice-buyer');
  const vanity = 'frame-rate';
  const item = await priced(buyer, vanity);
  const creatorEmail = `lena@${vanity}.vitrine.test`;

  await buyer.goto(`/nft/${item.id}`);
  const buy = buyer.getByRole('button', { name: `Buy now · ${usd(item.price)}` });
  await buy.click();
  const dialog = buyer.getByRole('dialog');
  await dialog.getByRole('button', { name: /Credit card/ }).click();
  await fillBillingForm(buyer, '4242424242424242');
  await dialog.getByRole('checkbox', { name: /purchase agreement/ }).check();
  await dialog.getByRole('button', { name: `Pay ${usd(item.price)}` }).click();
  await expect(buyer.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 60_000 });

  const creator = await (await browser.newContext()).newPage();
  await creator.goto('/dashboard/notifications');
  await creator.getByLabel('Email').fill(creatorEmail);
  await creator.getByRole('button', { name: 'Continue' }).click();
  await creator.getByLabel('Password', { exact: true }).fill('vitrine-demo');
  await creator.getByRole('button', { name: 'Sign in' }).click();
  await expect(creator).toHaveURL(/\/dashboard\/notifications$/);
  const notice = creator.getByRole('listitem').filter({ hasText: `Sold: ${item.title} #` });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText(`${usd(item.price)} paid`);
  await expect(notice).toContainText('New');
  await creator.screenshot({ path: 'test-results/screens/notifications.png' });
  await creator.getByRole('button', { name: 'Mark all read' }).click();
  await expect(notice).not.toContainText('New');

  const mail = await latestEmail(creator, creatorEmail, (subject) =>
    subject.startsWith(`Sold: ${item.title} #`),
  );
  expect(mail.text).toContain(`sold for ${usd(item.price)}.`);
  expect(mail.link).toBe(`${new URL(creator.url()).origin}/dashboard/notifications`);

  // The email's unsubscribe link works in a browser that is signed in to nothing.
  const unsubscribe = new URL(/https?:\/\/\S+\/unsubscribe\?t=\S+/.exec(mail.text)![0]);
  const reader = await (await browser.newContext()).newPage();
  await reader.goto(`${unsubscribe.pathname}${unsubscribe.search}`);
  await expect(reader.getByRole('heading', { name: 'Sale emails are off' })).toBeVisible();
  await expect(reader).toHaveURL(/\/unsubscribe$/);
  await reader.screenshot({ path: 'test-results/screens/unsubscribe.png', fullPage: true });

  // The creator sees the switch off, and turns it back on.
  await creator.reload();
  const emails = creator.getByRole('checkbox', { name: 'Email me when one of my items sells' });
  await expect(emails).not.toBeChecked();
  // The switch shows the saved setting: it turns on once the server has it.
  await expect(emails).toBeEnabled();
  await emails.click();
  await expect(emails).toBeChecked();
  await creator.reload();
  await expect(emails).toBeChecked();
});
