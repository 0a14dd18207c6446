import { collector, expect, expectAccessible, itemOnSale, test, usd } from './support';

/**
 * Apple Pay and Google Pay in Chromium: where the card provider is the embedded sandbox, the browser
 * plays both wallets with stand-ins of their real APIs (apple-pay-js-stubs' ApplePaySession, a
 * PaymentsClient of Google's shape) and a test wallet's sheet. The merchant validation (Apple), the
 * token exchange at the card sandbox and the charge are the real ones; the edition is minted on the
 * emulator and "Purchase Complete" shows.
 */
for (const { name, tag } of [
  { name: 'Apple Pay', tag: 'applepay' },
  { name: 'Google Pay', tag: 'googlepay' },
]) {
  test(`${name}: canceled sheet, then a wallet that shares no billing address, paid and minted`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await collector(browser, tag);
    const item = await itemOnSale(page);
    const price = usd(item.price);
    await page.goto(`/nft/${item.id}`);
    await page.getByRole('button', { name: `Buy now · ${price}` }).click();
    const dialog = page.getByRole('dialog', { name: 'How would you like to pay?' });
    await dialog.getByRole('button', { name: new RegExp(`^${name}`) }).click({ timeout: 15_000 });
    const panel = page.getByRole('region', { name });
    await panel.getByRole('checkbox', { name: /purchase agreement/ }).check({ timeout: 15_000 });
    await expectAccessible(page, `checkout-${tag}`);
    const pay = panel.getByRole('button', { name: `Pay ${price} with ${name}` });
    const sheet = page.getByRole('dialog', { name: `${name} (test wallet)` });

    // Closing the wallet's sheet: nothing is charged.
    await pay.click();
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    await expect(panel.getByRole('alert')).toHaveText('The payment was canceled. You were not charged.');

    await pay.click();
    await expect(sheet).toBeVisible();
    await page.screenshot({ path: `test-results/screens/checkout-${tag}-sheet.png` });
    await sheet.getByRole('checkbox', { name: 'Share my billing address' }).uncheck();
    await sheet.getByRole('button', { name: /^Pay / }).click();
    if (tag === 'applepay') {
      // Apple's sheet refuses a contact without an address with its own message.
      await expect(panel.getByRole('alert')).toContainText('did not share a complete billing address');
      await pay.click();
      await sheet.getByRole('button', { name: /^Pay / }).click();
    } else {
      // Google's sheet has closed: the "Google Pay billing" panel asks for the rest of the address.
      const billing = page.getByRole('region', { name: 'Google Pay billing' });
      await expect(billing).toBeVisible();
      await billing.getByRole('button', { name: `Pay ${price} with ${name}` }).click();
      await expect(billing.getByRole('alert').first()).toBeVisible();
      await billing.getByLabel('First name').fill('Grace');
      await billing.getByLabel('Address line 1').fill('1 Test Street');
      await billing.getByLabel('City').fill('Arlington');
      await billing.getByLabel('State').selectOption('VA');
      await billing.getByLabel('ZIP code').fill('22201');
      await expectAccessible(page, 'checkout-googlepay-billing');
      await page.screenshot({ path: 'test-results/screens/checkout-googlepay-billing.png' });
      await billing.getByRole('button', { name: `Pay ${price} with ${name}` }).click();
    }
    await expect(page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({ timeout: 90_000 });
    await page.screenshot({ path: `test-results/screens/checkout-${tag}-complete.png`, fullPage: true });
  });
}
