import AxeBuilder from '@axe-core/playwright';
import { type Browser, test as base, expect, type Page } from '@playwright/test';
import sharp from 'sharp';
import type { BlueprintJson } from '#domain/catalog';

/**
 * Playwright's test, closing at its end every browser context it opened beside its own page (a
 * second collector, an admin, a tab without scripts): the browser lives as long as the run, and a
 * context left open keeps its page running (its timers, its polls of the API) through every later
 * journey.
 */
export const test = base.extend<{ closeOwnContexts: undefined }>({
  closeOwnContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use(undefined);
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close()),
      );
    },
    { auto: true },
  ],
});
export { expect };

/** A fresh address short enough for the forgot-password form (at most 40 characters). */
export const uniqueEmail = (tag: string) =>
  `${tag}.${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}@example.com`;

/** Mailpit, where the server (as `npm start`) delivers every email: its inbox and API. */
export const MAILPIT = 'http://127.0.0.1:8025';

export interface Email {
  /** Mailpit's id of the message (its page: `${MAILPIT}/view/<id>`). */
  id: string;
  subject: string;
  text: string;
  html: string;
  /** The first link in the text: the email's call to action. */
  link?: string;
}

/**
 * The newest email to exactly this address (whose subject passes `match`, if given), read from
 * Mailpit once it has arrived: the server sends it from a job, moments after the request.
 */
export async function latestEmail(page: Page, to: string, match: (subject: string) => boolean = () => true) {
  type Summary = { ID: string; Subject: string; To: { Address: string }[] };
  let found: Summary | undefined;
  await expect
    .poll(
      async () => {
        const res = await page.request.get(
          `${MAILPIT}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`,
        );
        const { messages } = (await res.json()) as { messages: Summary[] };
        found = messages.find(
          (m) => m.To.some((r) => r.Address.toLowerCase() === to.toLowerCase()) && match(m.Subject),
        );
        return !!found;
      },
      { timeout: 30_000, message: `an email to ${to} in Mailpit` },
    )
    .toBe(true);
  const message = (await (await page.request.get(`${MAILPIT}/api/v1/message/${found!.ID}`)).json()) as {
    Subject: string;
    Text: string;
    HTML: string;
  };
  return {
    id: found!.ID,
    subject: message.Subject,
    text: message.Text,
    html: message.HTML,
    link: /https?:\/\/\S+/.exec(message.Text)?.[0],
  } satisfies Email;
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

/** Logs out from the user menu and checks that the server ended the session: the old token is refused. */
export async function logOut(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('vitrine.token'));
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
  if (token) {
    await expect
      .poll(async () =>
        (await page.request.get('/api/users/me', { headers: { authorization: `Bearer ${token}` } })).status(),
      )
      .toBe(401);
  }
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

/** A flat PNG or JPEG of the given size. */
export const flatImage = (width: number, height: number, color: string, format: 'png' | 'jpeg') => {
  const img = sharp({ create: { width, height, channels: 3, background: color } });
  return (format === 'png' ? img.png() : img.jpeg({ quality: 92 })).toBuffer();
};

export interface WizardOptions {
  name: string;
  /** A category radio's name; undefined skips the step. */
  category?: string;
  logo?: { name: string; mimeType: string; buffer: Buffer };
  banner?: { name: string; mimeType: string; buffer: Buffer };
  theme: 'Light' | 'Dark';
}

/**
 * Creates the signed-in user's storefront through every step of /create-storefront; skipped steps
 * use "Skip for now". Ends on the dashboard.
 */
export async function storefrontWizard(page: Page, o: WizardOptions) {
  await page.goto('/create-storefront');
  await expect(page).toHaveURL(/\/create-storefront\/landing$/);
  await page.getByRole('button', { name: 'Get started' }).click();
  await expect(page).toHaveURL(/\/name$/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Storefront name must be 2–50 characters.')).toBeVisible();
  await page.getByLabel('Storefront name').fill(o.name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/bio$/);
  await page.getByLabel('Bio').fill('Loops and stems recorded at night, one per edition.');
  await page.getByRole('button', { name: 'Continue' }).click();
  for (const step of ['category', 'logo', 'banner'] as const) {
    await expect(page).toHaveURL(new RegExp(`/${step}$`));
    const file = step === 'logo' ? o.logo : step === 'banner' ? o.banner : undefined;
    if (step === 'category' && o.category) await page.getByRole('radio', { name: o.category }).check();
    else if (file) await page.locator('input[type="file"]').setInputFiles(file);
    else {
      await page.getByRole('button', { name: 'Skip for now' }).click();
      continue;
    }
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await expect(page).toHaveURL(/\/theme$/);
  await page.getByRole('radio', { name: new RegExp(`^${o.theme}`) }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/email$/);
  await page.getByLabel('Contact email').fill('studio@example.com');
  await page.screenshot({ path: 'test-results/screens/wizard-email.png' });
  await page.getByRole('button', { name: 'Launch' }).click();
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 30_000 });
}

/** The signed-in user's storefront, read from the API as the browser would. */
export async function myStorefront(page: Page) {
  return page.evaluate(async () => {
    const token = localStorage.getItem('vitrine.token') ?? '';
    const res = await fetch('/api/storefronts/me', {
      headers: { authorization: `Bearer ${token.replace(/^"|"$/g, '')}` },
    });
    return res.json();
  });
}

/** axe-core finds no serious or critical violation on the page; a full-page screenshot is kept. */
export async function expectAccessible(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  await page.screenshot({ path: `test-results/screens/tour-${name}.png`, fullPage: true });
}

/**
 * Adds `dollars` to the signed-in collector's FUSD balance as in production: a crypto top-up in
 * Settings → Wallet, paid on the crypto sandbox's page, in a tab of its own (the page stays as it is).
 */
export async function topUpWithCrypto(page: Page, dollars: number) {
  const tab = await page.context().newPage();
  await tab.goto('/settings/wallet');
  const panel = tab.getByRole('region', { name: 'Add funds with crypto' });
  await panel.getByLabel('Amount (USD)').fill(String(dollars));
  await panel.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(tab.getByRole('heading', { name: `Pay $${dollars.toFixed(2)} USD` })).toBeVisible({
    timeout: 15_000,
  });
  await tab.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(tab.getByText(`Added $${dollars} to your balance.`)).toBeVisible({ timeout: 60_000 });
  await tab.close();
}

/** A signed-up collector with a linked Flow wallet and its collection, on a page of its own. */
export async function collector(browser: Browser, tag: string) {
  const page = await (await browser.newContext()).newPage();
  await signUp(page, uniqueEmail(tag), `${tag}-password-1`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await linkNewWallet(page, `${tag} ${Date.now().toString(36)}`);
  return page;
}

/** Blueprints this spec file has bought from already. */
const taken = new Set<string>();
/** A priced standalone blueprint on sale now that nobody resells (the methods show at once). */
export async function itemOnSale(page: Page): Promise<BlueprintJson> {
  const { results } = (await (
    await page.request.get('/api/blueprints?states=active&from=1&to=100')
  ).json()) as {
    results: BlueprintJson[];
  };
  for (const b of results) {
    if (taken.has(b.id) || b.blueprintPackId || b.quantityAvailable < 5 || b.type !== 'standalone') continue;
    if (b.price === 0 || [5, 51, 54].includes(b.price % 100)) continue;
    if (b.availableTime && new Date(b.availableTime).getTime() > Date.now()) continue;
    const listings = await page.request.get(`/api/nfts?blueprintId=${b.flowBlueprintId}&status=forSale`);
    if (((await listings.json()) as { total: number }).total > 0) continue;
    taken.add(b.id);
    return b;
  }
  throw new Error('no priced blueprint on sale in the seed');
}

/** "$25", "$9.50": a price as the pages show it. */
export const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: cents % 100 ? 2 : 0,
  }).format(cents / 100);

/**
 * Identity verification as a person does it: Settings → Account, the KYC button ("Begin KYC" asks
 * for the legal name first; "Retry KYC" goes straight back to the open session), then the decision
 * on the identity sandbox's page, which sends the browser back to the settings.
 */
export async function verifyIdentity(
  page: Page,
  decision: 'Approve' | 'Decline' | 'Request resubmission' | 'Abandon' = 'Approve',
  button = 'Begin KYC',
) {
  await page.goto('/settings/account');
  await page.getByRole('button', { name: button }).click();
  if (button === 'Begin KYC') {
    const modal = page.getByRole('dialog', { name: 'Verify your identity' });
    await modal.getByLabel('Last name').fill('Lovelace');
    await modal.getByRole('button', { name: 'Continue to Veriff' }).click();
  }
  await page.waitForURL(/\/v\/[\w-]+\.[\w-]+\.[\w-]+$/, { timeout: 15_000 });
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL(/\/settings\/account\?kyc=returned$/, { timeout: 15_000 });
}

/** Fills the checkout's new-card form: the card, then a US billing address and phone. */
export async function fillBillingForm(page: Page, card: string, cvv = '123') {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Card number').fill(card);
  await dialog.getByLabel('Expiry month').fill('12');
  await dialog.getByLabel('Expiry year').fill(String((new Date().getFullYear() + 3) % 100));
  await dialog.getByLabel('Security code (CVV)').fill(cvv);
  await dialog.getByLabel('First name').fill('Ada');
  await dialog.getByLabel('Address line 1').fill('1 Market Street');
  await dialog.getByLabel('City').fill('San Francisco');
  await dialog.getByLabel('Country').selectOption('US');
  await dialog.getByLabel('State').selectOption('CA');
  await dialog.getByLabel('ZIP code').fill('94105');
  await dialog.getByLabel('Phone number').fill('4155550123');
}

/** The API calls a page makes from now on (paths and queries). */
export function apiCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${url.pathname}${url.search}`);
  });
  return calls;
}

/** Errors the page reports (React reports a failed take-over of the server's markup this way). */
export function pageErrors(page: Page) {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}
