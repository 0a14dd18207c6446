import type { Locator, Page } from '@playwright/test';
import { expect, itemOnSale, test, uniqueEmail, usd, verifyIdentity } from './support';

/**
 * A newcomer follows the README: `npm start`, then opens exactly http://localhost:3000. Everything
 * happens on that one origin: sign-up, the dev wallet in FCL's frame, the card's 3-D Secure page,
 * the crypto page and identity verification on the providers' sandboxes, each sending the browser
 * back to http://localhost:3000 signed in. Another name of the machine (127.0.0.1) moves to it.
 */
const README_URL = 'http://localhost:3000';

/** Counts what a person does: every click (a choice, a button, a checkbox) and every field typed. */
function counter() {
  const counts = { clicks: 0, fields: 0 };
  return {
    counts,
    click: async (target: Locator) => {
      counts.clicks += 1;
      await target.click();
    },
    fill: async (target: Locator, value: string) => {
      counts.fields += 1;
      await target.fill(value);
    },
    select: async (target: Locator, value: string) => {
      counts.fields += 1;
      await target.selectOption(value);
    },
  };
}

const onReadmeOrigin = (page: Page) => expect.poll(() => new URL(page.url()).origin).toBe(README_URL);

test('another name of this machine moves to the README’s address, keeping path and query', async ({
  page,
}) => {
  await page.goto('http://127.0.0.1:3000/marketplace?sort=price-asc');
  await expect(page).toHaveURL(`${README_URL}/marketplace?sort=price-asc`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('a newcomer’s first purchase on the README’s address: sign up, wallet, card with 3-D Secure, profile', async ({
  page,
}, testInfo) => {
  test.setTimeout(360_000);
  const item = await itemOnSale(page);
  const you = counter();
  const email = uniqueEmail('newcomer');

  // The item page, as a link or the marketplace brings a newcomer to it.
  await page.goto(`${README_URL}/nft/${item.id}`);
  await you.click(page.getByRole('button', { name: `Buy now · ${usd(item.price)}` }));

  // Signed out: the account first, then back to the item.
  const signInFirst = page.getByRole('dialog', { name: 'Sign in to continue' });
  await expect(signInFirst.or(page.getByLabel('Email'))).toBeVisible();
  if (await signInFirst.isVisible()) await you.click(signInFirst.getByRole('button', { name: 'Sign In' }));
  await expect(page).toHaveURL(/\/auth\/connect/);
  await you.fill(page.getByLabel('Email'), email);
  await you.click(page.getByRole('button', { name: 'Continue' }));
  await you.fill(page.getByLabel('Password', { exact: true }), 'newcomer-password-1');
  await you.fill(page.getByLabel('Confirm password'), 'newcomer-password-1');
  await you.click(page.getByRole('button', { name: 'Continue' }));
  await you.fill(page.getByLabel('First name'), 'Ada');
  await you.fill(page.getByLabel('Last name (optional)'), 'Lovelace');
  await you.click(page.getByRole('button', { name: 'Create account' }));
  await expect(page).toHaveURL(/\/auth\/welcome$/);
  await you.click(page.getByRole('button', { name: 'Skip for now' }));
  await onReadmeOrigin(page);

  // Signed up, the newcomer is back on the item with its checkout open again.
  await expect(page).toHaveURL(new RegExp(`/nft/${item.id}(/details)?$`));
  const dialog = page.getByRole('dialog');
  await you.click(dialog.getByRole('button', { name: /Credit card/ }));

  // No wallet yet: connect the dev wallet (a new account in it) and set up the collection.
  await expect(dialog.getByRole('heading', { name: 'Collection required' })).toBeVisible({ timeout: 15_000 });
  await you.click(dialog.getByRole('button', { name: 'Connect wallet' }));
  const wallet = page.frameLocator('iframe[src*="/fcl/authn"]');
  const label = `newcomer ${Date.now().toString(36)}`;
  await you.click(wallet.getByText('Create New Account'));
  await you.fill(wallet.locator('input').first(), label);
  await you.click(wallet.getByRole('button', { name: /create/i }));
  await you.click(wallet.getByText(label).first());
  // The new wallet has no collection: its setup is asked for at once, in the wallet's next approval.
  await you.click(page.frameLocator('iframe[src*="8701"]').getByRole('button', { name: /approve/i }));
  await expect(dialog.getByRole('heading', { name: 'Pay by card' })).toBeVisible({ timeout: 60_000 });

  // The card form: what the account knows is there already.
  const field = (name: string) => dialog.getByLabel(name, { exact: true });
  const fillIfEmpty = async (name: string, value: string) => {
    if ((await field(name).inputValue()) === '') await you.fill(field(name), value);
  };
  await you.fill(field('Card number'), '4485040371536584');
  await you.fill(field('Expiry month'), '12');
  await you.fill(field('Expiry year'), String((new Date().getFullYear() + 3) % 100));
  await you.fill(field('Security code (CVV)'), '123');
  await fillIfEmpty('First name', 'Ada');
  await fillIfEmpty('Last name (optional)', 'Lovelace');
  await you.fill(field('Address line 1'), '1 Market Street');
  await you.fill(field('City'), 'San Francisco');
  if ((await field('Country').inputValue()) !== 'US') await you.select(field('Country'), 'US');
  await you.select(field('State'), 'CA');
  await you.fill(field('ZIP code'), '94105');
  await you.fill(field('Phone number'), '4155550123');
  const agreement = dialog.getByRole('checkbox', { name: /purchase agreement/ });
  if (!(await agreement.isChecked())) await you.click(agreement);
  await you.click(dialog.getByRole('button', { name: `Pay ${usd(item.price)}` }));

  // 3-D Secure on the card sandbox's page, then back on the README's address, signed in.
  await expect(page.getByRole('heading', { name: '3-D Secure check' })).toBeVisible({ timeout: 15_000 });
  await you.click(page.getByRole('button', { name: 'Approve' }));
  await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 60_000 });
  await onReadmeOrigin(page);
  await expect(page.getByText(item.title).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/readme-first-purchase.png', fullPage: true });

  await page.goto(`${README_URL}/profile/collection`);
  await expect(page.getByRole('button', { name: new RegExp(item.title) }).first()).toBeVisible({
    timeout: 30_000,
  });
  await testInfo.attach('first purchase steps', { body: JSON.stringify(you.counts) });

  // Identity verification on the identity sandbox's page comes back here, signed in.
  await verifyIdentity(page, 'Approve');
  await onReadmeOrigin(page);
  await expect(page.getByRole('button', { name: 'Verified' })).toBeDisabled();

  // A crypto top-up on the crypto sandbox's page comes back here too, with the balance added.
  await page.goto(`${README_URL}/settings/wallet`);
  const topUp = page.getByRole('region', { name: 'Add funds with crypto' });
  await topUp.getByLabel('Amount (USD)').fill('5');
  await topUp.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByRole('heading', { name: 'Pay $5.00 USD' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByText('Added $5 to your balance.')).toBeVisible({ timeout: 60_000 });
  await onReadmeOrigin(page);
  await page.screenshot({ path: 'test-results/screens/readme-topup-back.png', fullPage: true });
  console.log(
    `first card purchase from the item page: ${you.counts.clicks} clicks, ${you.counts.fields} fields`,
  );
});
