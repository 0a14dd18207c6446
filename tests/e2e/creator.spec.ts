import type { Page } from '@playwright/test';
import { expect, flatImage, myStorefront, signUp, storefrontWizard, test, uniqueEmail } from './support';

/**
 * A creator's products in the dashboard: add a blueprint with a real PNG preview and
 * JPEG asset, publish it (on chain), and see it on the storefront and in the marketplace; then hide,
 * show and cancel an item.
 */
/** The product API as the signed-in browser calls it. */
async function api<T = Record<string, unknown>>(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = (localStorage.getItem('vitrine.token') ?? '').replace(/^"|"$/g, '');
      const res = await fetch(`/api/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    },
    { method, path, body },
  ) as Promise<T>;
}

async function creatorWithStorefront(page: Page, tag: string) {
  await signUp(page, uniqueEmail(tag), 'creator-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  const name = `${tag} ${Date.now().toString(36)}`;
  const storefront = await api<{ id: string; vanityUrl: string }>(page, 'POST', 'storefronts', {
    name,
    description: 'Night loops, one per edition.',
    contactEmail: 'studio@example.com',
  });
  return { name, ...storefront };
}

async function openProducts(page: Page) {
  await page.goto('/dashboard/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
}

test('a new creator launches a storefront, adds a product, publishes it, and it is on sale', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signUp(page, uniqueEmail('maker'), 'creator-password-1');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  // Every wizard step, with a PNG logo and a JPEG banner; the category is skipped.
  await storefrontWizard(page, {
    name: `Maker ${Date.now().toString(36)}`,
    logo: { name: 'logo.png', mimeType: 'image/png', buffer: await flatImage(400, 400, '#005f73', 'png') },
    banner: {
      name: 'banner.jpg',
      mimeType: 'image/jpeg',
      buffer: await flatImage(1500, 300, '#9b2226', 'jpeg'),
    },
    theme: 'Light',
  });
  const shop = (await myStorefront(page)) as {
    id: string;
    vanityUrl: string;
    logoUrl: string;
    bannerUrl: string;
  };
  expect(shop.logoUrl).toMatch(/\.png$/);
  expect(shop.bannerUrl).toMatch(/\.jpg$/);
  await openProducts(page);
  await expect(page.getByText('You have no products yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Add product' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add product' });

  // Saving an empty form shows every field's error and uploads nothing.
  await dialog.getByRole('button', { name: 'Save draft' }).click();
  await expect(dialog.getByText('Please add a preview image')).toBeVisible();
  await expect(dialog.getByText('Please add the asset')).toBeVisible();

  const title = `Harbor Loop ${Date.now().toString(36)}`;
  await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
  await dialog.getByRole('textbox', { name: 'Description' }).fill('A harbor at night, looping.');
  await dialog.getByRole('spinbutton', { name: 'Price (USD)' }).fill('12.50');
  await dialog.getByRole('spinbutton', { name: 'Editions' }).fill('5');
  await dialog.locator('[data-upload="preview"] input[type="file"]').setInputFiles({
    name: 'preview.png',
    mimeType: 'image/png',
    buffer: await flatImage(800, 800, '#0a9396', 'png'),
  });
  await dialog.locator('[data-upload="asset"] input[type="file"]').setInputFiles({
    name: 'asset.jpg',
    mimeType: 'image/jpeg',
    buffer: await flatImage(1200, 1200, '#ee9b00', 'jpeg'),
  });
  await page.screenshot({ path: 'test-results/screens/product-form.png' });
  await dialog.getByRole('button', { name: 'Save draft' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  const row = page.getByRole('listitem').filter({ hasText: title });
  await expect(row).toContainText('Draft');
  await expect(row).toContainText('$12.50 · 5/5 available');
  const [draft] = (
    await api<{ results: Array<Record<string, string>> }>(page, 'GET', `blueprints?storefrontId=${shop.id}`)
  ).results;
  expect(draft).toMatchObject({ title, price: 1250, quantity: 5, state: 'created' });
  expect(draft!.previewImageUrl).toMatch(/^\/media\/uploads\/.+\.png$/);
  expect(draft!.assetUrl).toMatch(/^\/media\/uploads\/.+\.jpg$/);

  // Cancelling the edit form with changes asks first.
  await row.getByRole('button', { name: `Actions for ${title}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill(`${title} (edited)`);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Keep editing' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(row).toContainText(title);

  // Publish: the warning, then the wait until it is active on chain.
  await row.getByRole('button', { name: `Actions for ${title}` }).click();
  await page.getByRole('menuitem', { name: 'Publish' }).click();
  const publish = page.getByRole('dialog', { name: `Publish “${title}”?` });
  await expect(publish).toContainText('Once it is on chain it cannot be edited');
  // While it publishes, the list reloads once (to show Pending), not in a loop.
  let listLoads = 0;
  const countLoads = (request: { url(): string }) => {
    if (/\/api\/blueprints\?/.test(request.url())) listLoads++;
  };
  page.on('request', countLoads);
  const clicked = Date.now();
  await publish.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('dialog', { name: 'Published' })).toBeVisible({ timeout: 100_000 });
  const publishMs = Date.now() - clicked;
  page.off('request', countLoads);
  expect(listLoads).toBeLessThanOrEqual(2);
  console.log(`publish: click → Active in ${publishMs} ms`);
  await page.screenshot({ path: 'test-results/screens/product-published.png' });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(row).toContainText('Active');

  // On the public storefront and in the marketplace.
  await page.goto(`/s/${shop.vanityUrl}`);
  await expect(page.getByRole('link', { name: new RegExp(title) })).toBeVisible();
  await page.goto(`/marketplace?q=${encodeURIComponent(title)}`);
  await expect(page.getByRole('link', { name: new RegExp(title) })).toBeVisible();
  await page.getByRole('link', { name: new RegExp(title) }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/product-item.png' });
});

test('a creator hides, shows and cancels an item on sale', async ({ page }) => {
  test.setTimeout(120_000);
  const shop = await creatorWithStorefront(page, 'Seller');
  // A product published through the API (the first journey drives the form).
  const upload = async (kind: string, name: string, mimeType: string, bytes: Buffer) =>
    page.evaluate(
      async ({ kind, name, mimeType, data }) => {
        const token = (localStorage.getItem('vitrine.token') ?? '').replace(/^"|"$/g, '');
        const auth = { authorization: `Bearer ${token}` };
        const q = new URLSearchParams({ mimeType, objectKey: name, assetKind: kind });
        const grant = await (await fetch(`/api/assets/upload-url?${q}`, { headers: auth })).json();
        const bin = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        await fetch(grant.url, { method: 'PUT', body: bin });
        return grant.publicUrl as string;
      },
      { kind, name, mimeType, data: bytes.toString('base64') },
    );
  const title = `Dawn Loop ${Date.now().toString(36)}`;
  const created = await api<{ id: string }>(page, 'POST', 'blueprints', {
    title,
    description: 'Sunrise, looping.',
    price: 900,
    quantity: 3,
    previewImageUrl: await upload(
      'blueprintPreviewImage',
      'p.png',
      'image/png',
      await flatImage(600, 600, '#ae2012', 'png'),
    ),
    assetUrl: await upload(
      'blueprintAsset',
      'a.png',
      'image/png',
      await flatImage(600, 600, '#005f73', 'png'),
    ),
  });
  await api(page, 'PATCH', `blueprints/${created.id}`, { status: 'readyToSell' });
  await expect
    .poll(async () => (await api<{ state: string }>(page, 'GET', `blueprints/${created.id}`)).state, {
      timeout: 30_000,
    })
    .toBe('active');

  await openProducts(page);
  const row = page.getByRole('listitem').filter({ hasText: title });
  await expect(row).toContainText('Active');
  const act = async (name: string) => {
    await row.getByRole('button', { name: `Actions for ${title}` }).click();
    await page.getByRole('menuitem', { name }).click();
  };
  await act('Hide');
  await expect(row).toContainText('Hidden');
  await page.goto(`/s/${shop.vanityUrl}`);
  await expect(page.getByRole('heading', { name: 'No NFTs yet' })).toBeVisible();

  await openProducts(page);
  await page.locator('.vt-products__status label', { hasText: 'Hidden' }).click();
  await expect(page).toHaveURL(/status=hidden/);
  await expect(row).toBeVisible();
  await act('Show');
  await expect(page.getByText('No products match.')).toBeVisible();
  await page.locator('.vt-products__status label', { hasText: 'All' }).click();
  await expect(row).not.toContainText('Hidden');

  await act('Cancel sale');
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Cancel this sale?' }));
  await expect(confirm).toContainText('This cannot be undone');
  await page.getByRole('button', { name: 'Keep selling' }).click();
  await expect(row).toContainText('Active');
  await act('Cancel sale');
  await page.getByRole('button', { name: 'Cancel sale' }).last().click();
  await expect(row).toContainText('Canceled');
  await row.getByRole('button', { name: `Actions for ${title}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Cancel sale' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Hide' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Sales' }).click();
  await expect(page).toHaveURL(/\/dashboard\/sales\?blueprintId=/);
  await expect(page.getByText('No sales of this product yet.')).toBeVisible();
  await openProducts(page);
  await page.screenshot({ path: 'test-results/screens/products-canceled.png' });
  await page.goto(`/s/${shop.vanityUrl}`);
  await expect(page.getByRole('heading', { name: 'No NFTs yet' })).toBeVisible();
});

test('a creator edits the storefront in Account: checks, unsaved changes, save, disable', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const shop = await creatorWithStorefront(page, 'Editor');
  await page.goto('/dashboard/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();

  // Checks stop at the first error, in the order name, description, email, vanity URL.
  await page.getByLabel('Storefront name').fill('x');
  await page.getByLabel('Vanity URL').fill('not a url');
  await save.click();
  await expect(page.getByText('Storefront name must be 2–50 characters.')).toBeVisible();
  await expect(page.getByLabel('Storefront name')).toBeFocused();
  await expect(page.getByText('Use 2 to 50 letters, digits, underscores or hyphens.')).toHaveCount(0);
  await page.getByLabel('Storefront name').fill(`${shop.name} Studio`);
  await save.click();
  await expect(page.getByText('Use 2 to 50 letters, digits, underscores or hyphens.')).toBeVisible();
  await expect(page.getByLabel('Vanity URL')).toBeFocused();
  const vanity = `studio-${Date.now().toString(36)}`;
  await page.getByLabel('Vanity URL').fill(vanity);

  // Leaving with unsaved changes asks first.
  await page.getByRole('link', { name: 'Products' }).click();
  await expect(page.getByText('You have unsaved changes. Leave without saving?')).toBeVisible();
  await page.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  await save.click();
  await expect(page.getByText('Saved')).toBeVisible();
  await expect(save).toBeDisabled();
  await page.getByRole('link', { name: 'Products' }).click();
  await expect(page).toHaveURL(/\/dashboard\/products$/);
  expect(await myStorefront(page)).toMatchObject({ name: `${shop.name} Studio`, vanityUrl: vanity });

  // Disabled: the public page is gone for visitors.
  await page.goto('/dashboard/account');
  await page.getByRole('switch', { name: 'Storefront enabled' }).click();
  await expect(page.getByText('Storefront disabled')).toBeVisible();
  const visitor = await page.request.get(`/api/storefronts/${vanity}`);
  expect(visitor.status()).toBe(404);
  await page.getByRole('switch', { name: 'Storefront enabled' }).click();
  await expect(page.getByText('Storefront enabled', { exact: true }).first()).toBeVisible();
  expect((await page.request.get(`/api/storefronts/${vanity}`)).status()).toBe(200);
});
