import type { Browser, Page } from '@playwright/test';
import type { BlueprintJson } from '#domain/catalog';
import {
  approveInWallet,
  expect,
  expectAccessible,
  fillBillingForm,
  linkNewWallet,
  signUp,
  test,
  uniqueEmail,
} from './support';

/**
 * Buying a new edition: the checkout dialog from the item page, the card rail (tokenized in the
 * browser at the card sandbox, 3-D Secure on the sandbox's page), the edition minted on the Flow
 * emulator, and "Purchase Complete"; declines, a reload in the middle of 3-D Secure, free claims and
 * the collection check of a buyer without a wallet.
 */
async function collector(browser: Browser, tag: string, wallet = true) {
  const page = await (await browser.newContext()).newPage();
  const email = uniqueEmail(tag);
  await signUp(page, email, `${tag}-password-1`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  const address = wallet ? await linkNewWallet(page, `${tag} ${Date.now().toString(36)}`) : null;
  return { page, email, address };
}

const taken = new Set<string>();
/**
 * A seeded blueprint on sale now that nobody resells, not in a pack, with editions to spare; free
 * or priced (a price whose cents end in 05, 51 or 54 is one the card sandbox declines).
 */
async function itemOnSale(page: Page, free: boolean, resold = false): Promise<BlueprintJson> {
  const res = await page.request.get('/api/blueprints?states=active&from=1&to=100');
  const { results } = (await res.json()) as { results: BlueprintJson[] };
  const now = Date.now();
  for (const b of results) {
    if (taken.has(b.id) || b.blueprintPackId || b.quantityAvailable < 5) continue;
    if (b.type !== 'standalone' || (b.availableTime && new Date(b.availableTime).getTime() > now)) continue;
    if (free ? b.price !== 0 : b.price === 0 || [5, 51, 54].includes(b.price % 100)) continue;
    const listings = await page.request.get(`/api/nfts?blueprintId=${b.flowBlueprintId}&status=forSale`);
    if (((await listings.json()) as { total: number }).total > 0 !== resold) continue;
    taken.add(b.id);
    return b;
  }
  throw new Error(`no ${free ? 'free' : 'priced'}${resold ? ', resold' : ''} blueprint on sale in the seed`);
}

const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: cents % 100 ? 2 : 0,
  }).format(cents / 100);

async function openCheckout(page: Page, item: BlueprintJson) {
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${usd(item.price)}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'How would you like to pay?' })).toBeVisible({
    timeout: 15_000,
  });
  await dialog.getByRole('button', { name: /Credit card/ }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by card' })).toBeVisible({ timeout: 15_000 });
  return dialog;
}

async function pay(page: Page, price: number) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('checkbox', { name: /purchase agreement/ }).check();
  await dialog.getByRole('button', { name: `Pay ${usd(price)}` }).click();
}

async function approve3ds(page: Page) {
  await expect(page.getByRole('heading', { name: '3-D Secure check' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Approve' }).click();
}

async function expectPurchased(page: Page, item: BlueprintJson) {
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(item.title).first()).toBeVisible();
}

/** The buyer's editions of a blueprint on the chain's index, as the API reports them. */
async function ownedEditions(page: Page, item: BlueprintJson, address: string) {
  const res = await page.request.get(`/api/nfts?blueprintId=${item.flowBlueprintId}&from=1&to=100`);
  const { results } = (await res.json()) as { results: { owner: { wallet: { walletAddress: string } } }[] };
  return results.filter((n) => n.owner.wallet.walletAddress === address).length;
}

test('a new card with 3-D Secure, saved, then reused with its CVV: two editions minted to the wallet', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const buyer = await collector(browser, 'cardbuyer');
  const { page } = buyer;
  const item = await itemOnSale(page, false);

  const dialog = await openCheckout(page, item);
  await expectAccessible(page, 'checkout-card-form');
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(dialog.getByRole('heading', { name: 'How would you like to pay?' })).toBeVisible();
  await expectAccessible(page, 'checkout-payment-methods');
  await dialog.getByRole('button', { name: /Credit card/ }).click();
  // The billing rules hold before anything is sent.
  await dialog.getByLabel('Card number').fill('378282246310005');
  await pay(page, item.price);
  await expect(dialog.getByText(/We accept Visa, Mastercard and Discover/).first()).toBeVisible();
  await fillBillingForm(page, '4485040371536584');
  await dialog.getByLabel('Phone number').fill('12');
  await dialog.getByRole('button', { name: `Pay ${usd(item.price)}` }).click();
  await expect(dialog.getByText('The phone number needs at least 6 digits.')).toBeVisible();
  await dialog.getByLabel('Phone number').fill('4155550123');
  await dialog.getByRole('checkbox', { name: 'Save this card for later purchases' }).check();
  await page.screenshot({ path: 'test-results/screens/checkout-card-form.png', fullPage: true });
  await dialog.getByRole('button', { name: `Pay ${usd(item.price)}` }).click();

  await approve3ds(page);
  await expectPurchased(page, item);
  await expectAccessible(page, 'checkout-purchase-complete');
  await expect.poll(() => ownedEditions(page, item, buyer.address!), { timeout: 30_000 }).toBe(1);

  // The edition is in the buyer's profile.
  await page.goto('/profile/collection');
  await expect(page.getByRole('button', { name: new RegExp(item.title) }).first()).toBeVisible({
    timeout: 15_000,
  });

  // Settings → Payment lists the saved card by its last four digits.
  await page.goto('/settings/payment');
  await expect(page.getByText(/•••• 6584/)).toBeVisible();

  // The saved card needs its CVV again.
  const again = await openCheckout(page, item);
  await expect(again.getByText(/•••• 6584/)).toBeVisible();
  await pay(page, item.price);
  await expect(again.getByText(/security code|CVV/i).nth(1)).toBeVisible();
  await again.getByLabel('Security code (CVV)').fill('123');
  await again.getByRole('button', { name: `Pay ${usd(item.price)}` }).click();
  await approve3ds(page);
  await expectPurchased(page, item);
  await expect.poll(() => ownedEditions(page, item, buyer.address!), { timeout: 30_000 }).toBe(2);

  // The orders appear in the item's history as bought by card.
  const sales = await page.request.get(`/api/blueprints/${item.id}`);
  expect(((await sales.json()) as BlueprintJson).quantityAvailable).toBe(item.quantityAvailable - 2);
});

test('a declined card lands on the failed page, with nothing charged and a way back', async ({ browser }) => {
  test.setTimeout(180_000);
  const { page } = await collector(browser, 'declined');
  const item = await itemOnSale(page, false);
  await openCheckout(page, item);
  await fillBillingForm(page, '4095254802642505');
  await pay(page, item.price);
  await expect(page).toHaveURL(/\/checkoutcomfailed\//, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Purchase Failed' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/insufficient funds/i).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add funds with crypto' })).toHaveAttribute(
    'href',
    '/settings/wallet',
  );
  await expectAccessible(page, 'checkout-failed');
  await page.getByRole('link', { name: 'Back to the item' }).click();
  await expect(page).toHaveURL(new RegExp(`/nft/${item.id}`));
  const fresh = (await (await page.request.get(`/api/blueprints/${item.id}`)).json()) as BlueprintJson;
  expect(fresh.quantityAvailable).toBe(item.quantityAvailable);
});

test('leaving in the middle of 3-D Secure: buy again offers to resume the pending payment', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const buyer = await collector(browser, 'resumer');
  const { page } = buyer;
  const item = await itemOnSale(page, false);
  await openCheckout(page, item);
  await fillBillingForm(page, '4485040371536584');
  await pay(page, item.price);
  await expect(page.getByRole('heading', { name: '3-D Secure check' })).toBeVisible({ timeout: 15_000 });

  // The buyer walks away from the bank's page and presses buy again.
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${usd(item.price)}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Payment in progress' });
  await expect(dialog.getByText(usd(item.price)).first()).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page, 'checkout-card-pending');
  await dialog.getByRole('button', { name: 'Resume payment' }).click();
  await approve3ds(page);
  await expectPurchased(page, item);
  await expect.poll(() => ownedEditions(page, item, buyer.address!), { timeout: 30_000 }).toBe(1);
});

test('a free item is claimed once and minted to the wallet', async ({ browser }) => {
  test.setTimeout(180_000);
  const buyer = await collector(browser, 'claimer');
  const { page } = buyer;
  const item = await itemOnSale(page, true);
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: 'Claim for free' }).click();
  await expectPurchased(page, item);
  await page.screenshot({ path: 'test-results/screens/checkout-claimed.png', fullPage: true });
  await expect.poll(() => ownedEditions(page, item, buyer.address!), { timeout: 30_000 }).toBe(1);

  // The item is claimed: no second claim is offered.
  await page.goto(`/nft/${item.id}`);
  await expect(page.getByRole('button', { name: 'Claimed' })).toBeDisabled({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Claim for free' })).toHaveCount(0);
});

test('a buyer without a wallet connects one and sets up the collection, then pays where they were going', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { page } = await collector(browser, 'nowallet', false);
  const item = await itemOnSale(page, false);
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${usd(item.price)}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /Credit card/ }).click();
  await expect(dialog.getByRole('heading', { name: 'Collection required' })).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page, 'checkout-collection-required');
  await dialog.getByRole('button', { name: 'Connect wallet' }).click();
  const wallet = page.frameLocator('iframe[src*="/fcl/authn"]');
  const label = `nowallet ${Date.now().toString(36)}`;
  await wallet.getByText('Create New Account').click();
  await wallet.locator('input').first().fill(label);
  await wallet.getByRole('button', { name: /create/i }).click();
  await wallet.getByText(label).first().click();
  // The wallet just connected has no collection: its setup is asked for at once, in the wallet.
  await expect(dialog.getByText('Approve the setup in your wallet', { exact: false })).toBeVisible({
    timeout: 30_000,
  });
  await approveInWallet(page);
  await expect(dialog.getByRole('heading', { name: 'Pay by card' })).toBeVisible({ timeout: 60_000 });
  await fillBillingForm(page, '4242424242424242');
  await pay(page, item.price);
  await expectPurchased(page, item);
});

test('an item collectors resell: the new edition beside the listings, sorted; back returns to them', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { page } = await collector(browser, 'chooser');
  const item = await itemOnSale(page, false, true);
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${usd(item.price)}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose an edition' });
  const newEdition = dialog.getByRole('button', { name: `Buy a new edition for ${usd(item.price)}` });
  await expect(newEdition).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByRole('button', { name: /^Buy edition #\d+ for \$/ }).first()).toBeVisible();
  await expectAccessible(page, 'checkout-select-edition');
  await dialog.getByRole('button', { name: 'Sort: Price: low to high' }).click();
  await page.getByRole('menuitem', { name: 'Price: high to low' }).click();
  await expect(dialog.getByRole('button', { name: 'Sort: Price: high to low' })).toBeVisible();
  const prices = await dialog.locator('tbody tr td:nth-child(2)').allTextContents();
  const cents = prices.map((p) => Math.round(Number(p.replace(/[$,]/g, '')) * 100));
  expect(cents).toEqual([...cents].sort((a, b) => b - a));

  await newEdition.click();
  const methods = page.getByRole('dialog', { name: 'How would you like to pay?' });
  await expect(methods.getByRole('button', { name: /Credit card/ })).toBeVisible();
  await methods.getByRole('button', { name: 'Back' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
