import type { Page } from '@playwright/test';
import { staticHeads } from '#domain/pageHead';
import { apiCalls, expect, pageErrors, signUp, test, uniqueEmail } from './support';

/** The document's head as the app keeps it: one title, description and canonical link each. */
const headOf = (page: Page) =>
  page.evaluate(() => ({
    title: document.title,
    titles: document.querySelectorAll('title').length,
    descriptions: [...document.querySelectorAll('meta[name="description"]')].map((m) =>
      m.getAttribute('content'),
    ),
    canonicals: [...document.querySelectorAll('link[rel="canonical"]')].map(
      (l) => new URL(l.getAttribute('href')!).pathname,
    ),
  }));

const expectHead = async (page: Page, path: '/marketplace' | '/storefronts') =>
  expect
    .poll(() => headOf(page))
    .toEqual({
      title: staticHeads[path].title,
      titles: 1,
      descriptions: [staticHeads[path].description],
      canonicals: [path],
    });

/**
 * Public pages arrive rendered by the server (issue 15): readable before any script runs, then
 * taken over by the browser without asking the API for what the server already read.
 */
test('a visitor reads the marketplace before scripts run; then it is live without asking again', async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  const noScripts = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScripts.newPage();
  await plain.goto('/marketplace');
  await expect(plain.getByRole('heading', { name: 'Marketplace', level: 1 })).toBeVisible();
  await expect(plain.getByText(/\d+ items available$/)).toBeVisible();
  await expect(plain.locator('.vt-item-card').first()).toBeVisible();
  await expect(plain.getByRole('link', { name: 'Storefronts' }).first()).toBeVisible();
  await noScripts.close();

  const calls = apiCalls(page);
  const errors = pageErrors(page);
  // The server's first card, noted once the page is parsed and before any script of ours runs.
  await page.addInitScript(() =>
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive')
        (window as { serverCard?: Element | null }).serverCard = document.querySelector('.vt-item-card');
    }),
  );
  await page.goto('/marketplace');
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await expect(page.locator('.vt-item-card').first()).toBeVisible();
  expect(calls.filter((c) => c.startsWith('/api/blueprints'))).toEqual([]);
  // The app now keeps the head the server wrote: one of each, the page's own.
  await expectHead(page, '/marketplace');
  // React took the server's markup over as it was: the card on screen is the element the server sent.
  expect(
    await page.evaluate(
      () =>
        (window as { serverCard?: Element | null }).serverCard === document.querySelector('.vt-item-card'),
    ),
  ).toBe(true);

  // Live: the filter asks the API for the next page.
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByRole('region', { name: 'Cookies' })).toBeHidden();
  await page.getByLabel('Min', { exact: true }).fill('10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\?min=10$/);
  await expect
    .poll(() => calls.some((c) => c.startsWith('/api/blueprints') && c.includes('price')))
    .toBe(true);
  expect(errors).toEqual([]);
  // The head follows a move within the app.
  await page.getByRole('banner').getByRole('link', { name: 'Storefronts' }).click();
  await expect(page).toHaveURL(/\/storefronts$/);
  await expectHead(page, '/storefronts');

  // A storefront's page (opened directly, cookies accepted this time) is taken over as well.
  await page.goto('/s/aria-sounds');
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await expect(page.getByRole('button', { name: 'Share' })).toBeVisible();
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByRole('menuitem', { name: 'Copy link' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a signed-in collector gets the server’s page first, then their own header', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail('first-load'), 'correct horse battery');
  const errors = pageErrors(page);
  // The server renders for a visitor; this browser has a session, so it renders its own page.
  const html = await (await page.request.get('/marketplace')).text();
  expect(html).toContain('Sign In');
  await page.goto('/marketplace');
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  await expect(page.locator('.vt-item-card').first()).toBeVisible();
  expect(errors).toEqual([]);
});
