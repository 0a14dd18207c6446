import type { Page } from '@playwright/test';
import type { BlueprintJson } from '#domain/catalog';
import { expect, linkNewWallet, test, uniqueEmail, usd } from './support';

/**
 * The collector's and the creator's journeys on a phone (390 × 844 CSS pixels): on every page the
 * document never scrolls sideways, every button of an open dialog can be brought fully into the
 * viewport, the page has exactly one `main` landmark, and toasts cover neither a dialog's buttons
 * nor the cookie bar. Each page is kept as a screenshot (test-results/screens/phone-*.png).
 */
const phone = { width: 390, height: 844 };
test.use({ viewport: phone });

/** What does not fit: the document's width past the viewport, and dialog buttons outside it. */
async function misfits(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    const { scrollWidth } = document.documentElement;
    if (scrollWidth > window.innerWidth)
      problems.push(`the document is ${scrollWidth} px wide on a ${window.innerWidth} px screen`);
    for (const dialog of document.querySelectorAll<HTMLElement>('[role="dialog"]')) {
      const box = dialog.getBoundingClientRect();
      if (box.width > window.innerWidth) problems.push(`a dialog is ${Math.round(box.width)} px wide`);
      const buttons = [...dialog.querySelectorAll<HTMLElement>('button, [role="button"]')].filter(
        (b) => b.getClientRects().length > 0,
      );
      const name = (b: HTMLElement) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim();
      // Across, as laid out (nothing scrolled sideways to reach it).
      for (const button of buttons) {
        const r = button.getBoundingClientRect();
        if (r.left < 0 || r.right > window.innerWidth)
          problems.push(`button "${name(button)}" spans ${Math.round(r.left)}–${Math.round(r.right)} px`);
      }
      // Down: a button below the fold of a dialog's scrolling body is fine once scrolled to.
      for (const button of buttons) {
        button.scrollIntoView({ block: 'nearest' });
        const r = button.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight)
          problems.push(
            `button "${name(button)}" spans ${Math.round(r.top)}–${Math.round(r.bottom)} px down`,
          );
      }
    }
    const mains = document.querySelectorAll('main, [role="main"]').length;
    if (mains !== 1) problems.push(`${mains} main landmarks`);
    return problems;
  });
}

/**
 * The page fits the phone (see misfits); its screenshot is kept: the screen as a person sees it
 * while a dialog is open, else the full page.
 */
async function expectFits(page: Page, name: string) {
  await page.waitForLoadState('networkidle').catch(() => {});
  expect.soft(await misfits(page), name).toEqual([]);
  const fullPage = (await page.getByRole('dialog').count()) === 0;
  await page.screenshot({ path: `test-results/screens/phone-${name}.png`, fullPage });
}

/** Rectangles overlap. */
const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A seeded blueprint on sale now, not in a pack, that collectors resell (the edition dialog shows). */
async function resoldItem(page: Page): Promise<BlueprintJson> {
  const res = await page.request.get('/api/blueprints?states=active&from=1&to=100');
  const { results } = (await res.json()) as { results: BlueprintJson[] };
  for (const b of results) {
    if (b.blueprintPackId || b.quantityAvailable < 2 || b.type !== 'standalone' || b.price === 0) continue;
    if (b.availableTime && new Date(b.availableTime).getTime() > Date.now()) continue;
    const listings = await page.request.get(`/api/nfts?blueprintId=${b.flowBlueprintId}&status=forSale`);
    if (((await listings.json()) as { total: number }).total > 0) return b;
  }
  throw new Error('no resold blueprint on sale in the seed');
}

test('a visitor on a phone: home, marketplace and its filters, a storefront, an item, the toasts', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Cookies' })).toBeVisible();
  await expectFits(page, 'home');

  // The marketplace's filters wait behind a Filters button: the items come first.
  await page.goto('/marketplace');
  await expect(page.getByRole('heading', { name: 'Marketplace', level: 1 })).toBeVisible();
  const filters = page.getByRole('button', { name: /^Filters/ });
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('form', { name: 'Filter' })).toBeHidden();
  const firstCard = page.locator('.vt-item-card').first();
  expect((await firstCard.boundingBox())!.y).toBeLessThan(phone.height);
  await expectFits(page, 'marketplace');
  await filters.click();
  await expect(filters).toHaveAttribute('aria-expanded', 'true');
  await page.getByLabel('Min', { exact: true }).fill('10');
  await page.getByRole('checkbox', { name: 'Music' }).check();
  await expectFits(page, 'marketplace-filters');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\?min=10&categories=music$/);
  // Applied, the filters fold away and the button counts them.
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  await expect(filters).toHaveAccessibleName('Filters, 2 applied');
  await expectFits(page, 'marketplace-filtered');

  await page.goto('/storefronts');
  await expect(page.getByRole('heading', { name: 'Storefronts', level: 1 })).toBeVisible();
  await expectFits(page, 'storefronts');
  await page.goto('/s/aria-sounds');
  await expect(page.getByRole('list', { name: 'Aria Sounds items' })).toBeVisible();
  // The storefront's price filter folds away the same way.
  await expect(page.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByLabel('Min', { exact: true })).toBeHidden();
  await expectFits(page, 'storefront');

  // A toast and a dialog together: the toast covers neither the dialog's buttons nor the cookie bar.
  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByRole('menuitem', { name: 'Copy link' }).click();
  const toast = page.locator('.vt-toast').first();
  await expect(toast).toBeVisible();
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Report storefront' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(toast).toBeVisible();
  const toastBox = (await toast.boundingBox())!;
  for (const button of await dialog.getByRole('button').all()) {
    const box = (await button.boundingBox())!;
    expect.soft(overlaps(toastBox, box), `the toast covers "${await button.textContent()}"`).toBe(false);
  }
  const cookies = (await page.getByRole('region', { name: 'Cookies' }).boundingBox())!;
  expect.soft(overlaps(toastBox, cookies), 'the toast covers the cookie bar').toBe(false);
  await expectFits(page, 'storefront-dialog-toast');
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('list', { name: 'Aria Sounds items' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Edition of');
  await expectFits(page, 'item');
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('list', { name: 'History' })).toBeVisible();
  await expectFits(page, 'item-history');

  // An unknown path is the Not Found page, answered with 404 by the server.
  const missing = await page.request.get('/no-such-page');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('We couldn&#x27;t find what you&#x27;re looking for');
  expect((await page.request.get('/marketplace')).status()).toBe(200);
  await page.goto('/no-such-page');
  await expect(page.getByText("We couldn't find what you're looking for")).toBeVisible();
  await expectFits(page, 'not-found');
});

test('a collector on a phone: sign-up, the wizard, profile, settings, the edition and checkout dialogs', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByRole('button', { name: 'Accept' }).click();

  // Sign-up, each step.
  const email = uniqueEmail('phone');
  await page.goto('/auth/connect');
  await expect(page.getByLabel('Email')).toBeVisible();
  await expectFits(page, 'auth-connect');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/auth\/signup$/);
  await expectFits(page, 'auth-signup');
  await page.getByLabel('Password', { exact: true }).fill('phone-password-1');
  await page.getByLabel('Confirm password').fill('phone-password-1');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/auth\/name$/);
  await expectFits(page, 'auth-name');
  await page.getByLabel('First name').fill('Ada');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/auth\/welcome$/);
  await expectFits(page, 'auth-welcome');
  await page.getByRole('button', { name: 'Skip for now' }).click();

  // The storefront wizard, each step.
  await page.goto('/create-storefront');
  await expect(page).toHaveURL(/\/landing$/);
  await expectFits(page, 'wizard-landing');
  await page.getByRole('button', { name: 'Get started' }).click();
  await expect(page).toHaveURL(/\/name$/);
  await page.getByLabel('Storefront name').fill(`Pocket Shop ${Date.now().toString(36)}`);
  await expectFits(page, 'wizard-name');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/bio$/);
  await page.getByLabel('Bio').fill('Small loops made on a phone.');
  await expectFits(page, 'wizard-bio');
  await page.getByRole('button', { name: 'Continue' }).click();
  for (const step of ['category', 'logo', 'banner'] as const) {
    await expect(page).toHaveURL(new RegExp(`/${step}$`));
    await expectFits(page, `wizard-${step}`);
    await page.getByRole('button', { name: 'Skip for now' }).click();
  }
  await expect(page).toHaveURL(/\/theme$/);
  await expectFits(page, 'wizard-theme');
  await page.getByRole('radio', { name: /^Dark/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/email$/);
  await page.getByLabel('Contact email').fill('studio@example.com');
  await expectFits(page, 'wizard-email');
  await page.getByRole('button', { name: 'Launch' }).click();
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 30_000 });
  await expectFits(page, 'dashboard-new');

  // Profile and settings.
  await page.goto('/profile/collection');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectFits(page, 'profile');
  for (const tab of ['account', 'security', 'wallet', 'payment']) {
    await page.goto(`/settings/${tab}`);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expectFits(page, `settings-${tab}`);
  }
  await linkNewWallet(page, `phone ${Date.now().toString(36)}`);
  await expectFits(page, 'settings-wallet-linked');

  // An item collectors resell: the edition dialog, the payment methods, the card form.
  const item = await resoldItem(page);
  await page.goto(`/nft/${item.id}`);
  await page.getByRole('button', { name: `Buy now · ${usd(item.price)}` }).click();
  const editions = page.getByRole('dialog', { name: 'Choose an edition' });
  await expect(
    editions.getByRole('button', { name: `Buy a new edition for ${usd(item.price)}` }),
  ).toBeVisible({
    timeout: 15_000,
  });
  await expectFits(page, 'checkout-editions');
  await editions.getByRole('button', { name: `Buy a new edition for ${usd(item.price)}` }).click();
  const methods = page.getByRole('dialog', { name: 'How would you like to pay?' });
  await expect(methods.getByRole('button', { name: /Credit card/ })).toBeVisible();
  await expectFits(page, 'checkout-methods');
  await methods.getByRole('button', { name: /Credit card/ }).click();
  const checkout = page.getByRole('dialog');
  await expect(checkout.getByRole('heading', { name: 'Pay by card' })).toBeVisible({ timeout: 15_000 });
  await expect(checkout.getByLabel('Card number')).toBeVisible();
  await expectFits(page, 'checkout-card');
});

test('a creator on a phone: the dashboard with sales, and payouts', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/dashboard/sales');
  await expect(page).toHaveURL(/\/auth\/connect$/);
  await page.getByLabel('Email').fill('noor@brush-pixel.vitrine.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expectFits(page, 'auth-login');
  await page.getByLabel('Password', { exact: true }).fill('vitrine-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/sales/);
  await page.getByRole('button', { name: 'Accept' }).click();
  for (const panel of ['preview', 'account', 'products', 'notifications', 'help', 'sales']) {
    await page.goto(`/dashboard/${panel}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expectFits(page, `dashboard-${panel}`);
  }
  const rows = page.getByTestId('sale-row');
  await rows
    .first()
    .getByRole('button', { name: /^Details of / })
    .click();
  await expectFits(page, 'dashboard-sales-details');

  await page.goto('/payouts');
  await expect(page.getByTestId('available')).toHaveText(/^\$/);
  await expect(
    page.getByRole('region', { name: 'Available funds over time' }).locator('canvas').first(),
  ).toBeVisible({ timeout: 15_000 });
  await expectFits(page, 'payouts');
  const request = page.getByRole('button', { name: 'Request payout' });
  await expect(request).toBeEnabled();
  await request.click();
  await expect(page.getByRole('dialog', { name: 'Request payout' })).toBeVisible();
  await expectFits(page, 'payouts-request');
});
