import type { Page } from '@playwright/test';
import {
  apiCalls,
  expect,
  itemOnSale,
  myStorefront,
  pageErrors,
  signUp,
  storefrontWizard,
  test,
  uniqueEmail,
  usd,
} from './support';

/** The head as the browser holds it: one title, description and canonical link, the preview tags. */
const headOf = (page: Page) =>
  page.evaluate(() => ({
    titles: [...document.querySelectorAll('title')].map((t) => t.textContent),
    descriptions: document.querySelectorAll('meta[name="description"]').length,
    canonical: [...document.querySelectorAll('link[rel="canonical"]')].map((l) => l.getAttribute('href')),
    ogImage: document.querySelector('meta[property="og:image"]')?.getAttribute('content'),
  }));

/**
 * The item page, the link every card and share uses (issue 38), arrives rendered by the server:
 * its title, price and Buy button before any script runs, its link-preview tags in the head; then
 * the browser takes it over without asking the API for what the page carried.
 */
test('a visitor reads an item page before scripts run; then it is live without asking again', async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  const item = await itemOnSale(page);
  const path = `/nft/${item.id}`;
  const noScripts = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScripts.newPage();
  const response = await plain.goto(path);
  expect(response?.status()).toBe(200);
  await expect(
    plain.getByRole('heading', {
      name: new RegExp(`^${item.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      level: 1,
    }),
  ).toBeVisible();
  await expect(plain.locator('.vt-item__price')).toContainText(usd(item.price));
  await expect(plain.getByRole('button', { name: `Buy now · ${usd(item.price)}` })).toBeVisible();
  await expect(plain).toHaveTitle(`${item.title} · ${usd(item.price)} · Vitrine`);
  const plainHead = await headOf(plain);
  expect(plainHead.canonical).toEqual([`http://localhost:3000${path}`]);
  expect(plainHead.ogImage).toBe(`http://localhost:3000${item.shareImage!.url}`);
  await plain.screenshot({ path: 'test-results/screens/item-page-no-scripts.png', fullPage: true });

  // A storefront a visitor cannot see, or none: the Not Found page, with status 404.
  const missing = await plain.goto('/s/no-such-storefront');
  expect(missing?.status()).toBe(404);
  await expect(plain.getByTestId('not-found')).toBeVisible();
  await expect(plain).toHaveTitle('Page not found · Vitrine');
  await plain.screenshot({ path: 'test-results/screens/not-found-no-scripts.png', fullPage: true });
  await noScripts.close();

  const calls = apiCalls(page);
  const errors = pageErrors(page);
  await page.goto(path);
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await expect(page.getByRole('button', { name: `Buy now · ${usd(item.price)}` })).toBeEnabled();
  // Taken over: React keeps the server's head (no second title, description or canonical link)
  // and the page asked the API for nothing it carried.
  expect(await headOf(page)).toMatchObject({
    titles: [`${item.title} · ${usd(item.price)} · Vitrine`],
    descriptions: 1,
    canonical: [`http://localhost:3000${path}`],
  });
  expect(calls.filter((c) => c.startsWith('/api/blueprints') || c.startsWith('/api/nfts'))).toEqual([]);
  expect(errors).toEqual([]);
  await page.screenshot({ path: 'test-results/screens/item-page-live.png', fullPage: true });

  // On to its History tab and its storefront: the browser's head follows the page.
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(`${path}/history`);
  expect((await headOf(page)).canonical).toEqual([`http://localhost:3000${path}`]);
  await page.getByRole('link', { name: item.storefront!.name }).first().click();
  await expect(page).toHaveURL(`/s/${item.storefront!.vanityUrl}`);
  await expect(page).toHaveTitle(`${item.storefront!.name} · Vitrine`);
  expect(await headOf(page)).toMatchObject({
    titles: [`${item.storefront!.name} · Vitrine`],
    descriptions: 1,
    canonical: [`http://localhost:3000/s/${item.storefront!.vanityUrl}`],
  });
  await page.screenshot({ path: 'test-results/screens/storefront-after-item.png', fullPage: true });
  expect(errors).toEqual([]);
});

/**
 * The server renders for a visitor: a storefront its owner has taken offline answers 404 with the
 * Not Found page. Its owner, signed in, still sees it: their browser renders its own page.
 */
test('an offline storefront is a 404 for visitors, and its owner still sees it', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail('offline'), 'offline-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  const name = `Offline ${Date.now().toString(36)}`;
  await storefrontWizard(page, { name, theme: 'Light' });
  const { id, vanityUrl } = (await myStorefront(page)) as { id: string; vanityUrl: string };
  const status = await page.evaluate(async (storefrontId) => {
    const token = (localStorage.getItem('vitrine.token') ?? '').replace(/^"|"$/g, '');
    const res = await fetch(`/api/storefronts/${storefrontId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: false }),
    });
    return res.status;
  }, id);
  expect(status).toBe(200);

  const visitor = await page.request.get(`/s/${vanityUrl}`);
  expect(visitor.status()).toBe(404);
  expect(await visitor.text()).toContain('data-testid="not-found"');

  const errors = pageErrors(page);
  const response = await page.goto(`/s/${vanityUrl}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId('not-found')).toHaveCount(0);
  await expect(page).toHaveTitle(`${name} · Vitrine`);
  // The browser's own page, with the signed-in header, over the visitor's 404.
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/offline-storefront-owner.png', fullPage: true });
  // The browser notes the page's own 404 and the share links' (an offline storefront has none); nothing else.
  expect(
    errors.filter((e) => !e.startsWith('Failed to load resource: the server responded with a status of 404')),
  ).toEqual([]);
});
