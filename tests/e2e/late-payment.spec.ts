import type { APIRequestContext, Page } from '@playwright/test';
import type { BlueprintJson } from '#domain/catalog';
import { collector, expect, expectAccessible, itemOnSale, test, usd } from './support';

/**
 * A payment that completes after its edition sold out is refunded automatically, and the buyer sees
 * it on the purchase-complete page with the order's timeline.
 *
 * The buyer's order holds the last edition while its payment window is open, so the edition can
 * only go to someone else once that order ended. Here it ends the way a buyer ends it: in a second
 * tab the checkout offers the unfinished on-ramp payment and the buyer cancels it, while the
 * provider's widget stays open in the first tab (the provider knows nothing of our order). A
 * seeded collector then buys the last edition with crypto through the API, and the buyer pays in
 * the widget left open: the page shows "Payment Refunded", the FUSD is back in the buyer's wallet.
 *
 * (A crypto charge cannot be paid late this way: canceling it cancels it on the hosted page too,
 * and its order outlives the hosted charge by 5 minutes, so only the on-ramp's widget can pay an
 * order that already ended.)
 */

/** Seeded collectors share this password (server/seed/world.ts). */
const SEED_PASSWORD = 'vitrine-demo';

/** A seeded priced standalone blueprint on sale now with one edition left, not resold. */
async function lastEditionOnSale(page: Page): Promise<BlueprintJson> {
  const { results } = (await (
    await page.request.get('/api/blueprints?states=active&from=1&to=100')
  ).json()) as { results: BlueprintJson[] };
  for (const b of results) {
    if (b.quantityAvailable !== 1 || b.price === 0 || b.blueprintPackId || b.type !== 'standalone') continue;
    if (b.availableTime && new Date(b.availableTime).getTime() > Date.now()) continue;
    const listings = await page.request.get(`/api/nfts?blueprintId=${b.flowBlueprintId}&status=forSale`);
    if (((await listings.json()) as { total: number }).total > 0) continue;
    return b;
  }
  throw new Error('no priced blueprint with one edition left in the seed');
}

/**
 * A seeded collector buys the item's last edition with crypto through the API: a charge, paid on
 * the crypto sandbox's hosted page; answers once the sandbox's webhook has the order paid.
 */
async function buyWithCryptoAs(request: APIRequestContext, email: string, item: BlueprintJson) {
  const login = await request.post('/api/auth/logins', { data: { email, password: SEED_PASSWORD } });
  expect(login.ok(), await login.text()).toBeTruthy();
  const headers = { authorization: `Bearer ${((await login.json()) as { authToken: string }).authToken}` };
  const created = await request.post('/api/coinbase-charges', {
    headers,
    data: {
      type: 'directPurchase',
      blueprintId: item.id,
      expectedPrice: item.price,
      idempotencyKey: `sellout-${Date.now().toString(36)}`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const charge = (await created.json()) as { id: string; hostedUrl: string };
  const paid = await request.post(charge.hostedUrl, {
    form: { coin: 'usdc', action: 'pay' },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
  const orderStatus = async () => {
    const read = await request.get(`/api/coinbase-charges/${charge.id}`, { headers });
    return ((await read.json()) as { order: { status: string } }).order.status;
  };
  await expect.poll(orderStatus, { timeout: 30_000 }).toMatch(/^(authorized|minting|minted)$/);
}

const available = async (page: Page, item: BlueprintJson) =>
  ((await (await page.request.get(`/api/blueprints/${item.id}`)).json()) as BlueprintJson).quantityAvailable;

test('a payment that completes after its edition sold out is refunded as FUSD: "Payment Refunded" with the timeline', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const page = await collector(browser, 'latepay');
  const item = await lastEditionOnSale(page);
  const price = usd(item.price);

  // The buyer opens the on-ramp's widget for the last edition: the order holds it.
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('button', { name: `Buy now · ${price}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /^Card to crypto/ }).click();
  const panel = dialog.getByRole('region', { name: 'Card to crypto' });
  await panel.getByRole('checkbox', { name: /purchase agreement/ }).check({ timeout: 15_000 });
  await panel.getByRole('button', { name: `Pay ${price} by card` }).click();
  const widget = page.frameLocator('iframe[src*="/widget"]');
  const pay = widget.getByRole('button', { name: `Pay $${(item.price / 100).toFixed(2)}` });
  await expect(pay).toBeVisible({ timeout: 15_000 });
  expect(await available(page, item)).toBe(0);

  // In another tab the checkout offers the unfinished payment; the buyer cancels it (the widget
  // stays open in the first tab) and the edition is on sale again.
  const other = await itemOnSale(page);
  const tab = await page.context().newPage();
  await tab.goto(`/nft/${other.id}`);
  await tab.getByRole('button', { name: `Buy now · ${usd(other.price)}` }).click();
  const otherDialog = tab.getByRole('dialog');
  await otherDialog.getByRole('button', { name: /^Card to crypto/ }).click();
  const otherPanel = otherDialog.getByRole('region', { name: 'Card to crypto' });
  await expect(otherPanel).toContainText(
    `You have an unfinished card payment of ${price} for ${item.title}. Resume it, or cancel it to buy this item.`,
    { timeout: 15_000 },
  );
  await tab.screenshot({ path: 'test-results/screens/late-payment-open-charge.png' });
  await otherPanel.getByRole('button', { name: 'Cancel payment' }).click();
  await expect(otherPanel.getByRole('checkbox', { name: /purchase agreement/ })).toBeVisible({
    timeout: 15_000,
  });
  expect(await available(page, item)).toBe(1);

  // Meanwhile a seeded collector buys the last edition with crypto: it is sold out.
  await buyWithCryptoAs(request, 'mina@collectors.vitrine.test', item);
  await tab.goto(`/nft/${item.id}`);
  await expect(tab.getByRole('button', { name: 'Sold out' })).toBeVisible({ timeout: 15_000 });
  await tab.close();

  // The buyer pays in the widget left open: the payment arrived too late and goes back as FUSD.
  await pay.click();
  await expect(page).toHaveURL(new RegExp(`/ordercomplete/${item.id}\\?.*type=wert.*charge=`), {
    timeout: 15_000,
  });
  await expect(page.getByRole('heading', { name: 'Payment Refunded' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(`${price} was refunded as FUSD to your wallet.`)).toContainText(
    'Your payment arrived after the order ended, when this edition was no longer held for you, so nothing was minted.',
  );
  const timeline = page.getByRole('list', { name: 'Order timeline' }).getByRole('listitem');
  await expect(timeline).toHaveCount(4);
  await expect(timeline).toContainText([
    'Order placed',
    'Order canceled',
    'Paid after the order ended',
    `Refunded as FUSD${price} was sent back as FUSD to your wallet.`,
  ]);
  await expectAccessible(page, 'purchase-refunded');
  await page.screenshot({ path: 'test-results/screens/late-payment-refunded.png', fullPage: true });

  // The FUSD is in the buyer's wallet: the balance rail of the checkout reads it from the chain.
  await page.goto(`/nft/${other.id}`);
  await page.getByRole('button', { name: `Buy now · ${usd(other.price)}` }).click();
  await expect(page.getByRole('dialog').getByRole('button', { name: /^Balance/ })).toContainText(
    `${price} FUSD in your wallet`,
    { timeout: 15_000 },
  );
});
