import type { Browser, Page } from '@playwright/test';
import {
  approveInWallet,
  devPost,
  expect,
  linkNewWallet,
  logOut,
  signUp,
  test,
  topUpWithCrypto,
  uniqueEmail,
  verifyIdentity,
} from './support';

/**
 * Resale on the real chain, every transaction signed in the FCL dev wallet: a verified seller lists
 * two collectibles and removes one listing; a buyer pays the other with the stablecoin balance and
 * sends it on with a batch transfer.
 */
async function collector(browser: Browser, tag: string) {
  const page = await (await browser.newContext()).newPage();
  const email = uniqueEmail(tag);
  await signUp(page, email, `${tag}-password-1`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  const address = await linkNewWallet(page, `${tag} ${Date.now().toString(36)}`);
  return { page, email, address };
}

async function openCollectible(page: Page, title: string) {
  await page.goto('/profile/collection');
  await page.getByRole('button', { name: new RegExp(title) }).click();
  return page.getByRole('dialog', { name: title });
}

test('list, remove, buy with the balance and transfer: every step a wallet-signed transaction', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const seller = await collector(browser, 'seller');
  const { platformAddress } = await (await seller.page.request.get('/api/chain/config')).json();
  const kept = await devPost<{ id: string }>(seller.page, 'nfts', {
    walletAddress: seller.address,
    title: 'Harbor Lights',
    royaltyAddress: platformAddress,
    royaltyPercent: 10,
  });
  await devPost(seller.page, 'nfts', { walletAddress: seller.address, title: 'Quiet Dunes' });
  // Selling needs an approved identity verification, done on the identity sandbox's page.
  await verifyIdentity(seller.page);
  await expect(seller.page.getByRole('button', { name: 'Verified' })).toBeDisabled();

  // The seller lists Harbor Lights at $25: the dialog shows the royalty and the seller's net.
  let viewer = await openCollectible(seller.page, 'Harbor Lights');
  await viewer.getByRole('button', { name: 'List for sale' }).click();
  const listDialog = seller.page.getByRole('dialog', { name: 'List for sale' });
  await listDialog.getByLabel('Price (USD)').fill('25');
  await expect(listDialog.getByText('$22.50')).toBeVisible();
  await listDialog.getByRole('button', { name: 'List for sale' }).click();
  await approveInWallet(seller.page);
  await expect(seller.page.getByRole('heading', { name: 'Listed for sale' })).toBeVisible({
    timeout: 30_000,
  });
  await seller.page.screenshot({ path: 'test-results/screens/list-for-sale-done.png' });
  await seller.page.getByRole('button', { name: 'Done' }).click();
  await seller.page.keyboard.press('Escape');

  // Quiet Dunes is listed and taken off again.
  viewer = await openCollectible(seller.page, 'Quiet Dunes');
  await viewer.getByRole('button', { name: 'List for sale' }).click();
  await seller.page.getByLabel('Price (USD)').fill('10');
  await seller.page
    .getByRole('dialog', { name: 'List for sale' })
    .getByRole('button', { name: 'List for sale' })
    .click();
  await approveInWallet(seller.page);
  await seller.page.getByRole('button', { name: 'Done' }).click({ timeout: 30_000 });
  await viewer.getByRole('button', { name: 'Remove listing' }).click();
  await seller.page
    .getByRole('dialog', { name: 'Remove listing' })
    .getByRole('button', { name: 'Remove listing' })
    .click();
  await approveInWallet(seller.page);
  await expect(seller.page.getByRole('heading', { name: 'Removed from the marketplace' })).toBeVisible({
    timeout: 30_000,
  });
  await seller.page.getByRole('button', { name: 'Done' }).click();
  await seller.page.keyboard.press('Escape');
  await seller.page.goto('/profile/for-sale');
  await expect(seller.page.getByRole('link', { name: 'For sale (1)' })).toBeVisible();
  await expect(seller.page.getByRole('list', { name: 'For sale' })).toContainText('Harbor Lights');
  await expect(seller.page.getByRole('list', { name: 'For sale' })).not.toContainText('Quiet Dunes');
  await logOut(seller.page);

  // The buyer has $20: not enough; after a $10 top-up the purchase goes through.
  const buyer = await collector(browser, 'buyer');
  await topUpWithCrypto(buyer.page, 20);
  await buyer.page.goto(`/nft/${kept.id}`);
  await expect(buyer.page.getByRole('heading', { level: 1 })).toContainText('Harbor Lights #01');
  await expect(buyer.page.getByText('$25', { exact: true })).toBeVisible();
  await buyer.page.getByRole('button', { name: 'Buy now' }).click();
  const buyDialog = buyer.page.getByRole('dialog', { name: 'Buy for $25' });
  await expect(buyDialog.getByText('Insufficient funds')).toBeVisible({ timeout: 15_000 });
  await topUpWithCrypto(buyer.page, 10);
  await buyDialog.getByRole('button', { name: 'Check balance again' }).click();
  await buyDialog.getByRole('button', { name: 'Pay $25' }).click();
  await expect(buyDialog.getByRole('alert')).toHaveText(/Please fill in|agree|terms/i);
  await buyDialog.getByRole('checkbox').check();
  await buyDialog.getByRole('button', { name: 'Pay $25' }).click();
  await approveInWallet(buyer.page);
  await expect(buyer.page.getByRole('heading', { name: 'Purchase Complete' })).toBeVisible({
    timeout: 30_000,
  });
  await buyer.page.screenshot({ path: 'test-results/screens/buy-listing-done.png' });
  // Its history: the resale just made, then the mint.
  await buyer.page.goto(`/nft/${kept.id}/history`);
  const history = buyer.page.getByRole('list', { name: 'History' }).getByRole('listitem');
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText('bought edition #01');
  await expect(history.last()).toContainText('created edition #01');
  await buyer.page.goto(`/nft/${kept.id}`);
  await buyer.page.getByRole('button', { name: 'Buy now' }).waitFor({ state: 'detached' });
  await buyer.page.goto('/profile/collection');
  await expect(buyer.page.getByRole('link', { name: 'Collectibles (1)' })).toBeVisible();

  // The buyer sends it back with a batch transfer; the indexer moves it to the seller.
  await buyer.page.getByRole('button', { name: 'Select to transfer' }).click();
  await buyer.page.getByRole('checkbox', { name: 'Select' }).check();
  await buyer.page.getByRole('button', { name: 'Transfer selected (1)' }).click();
  const transfer = buyer.page.getByRole('dialog', { name: 'Transfer this collectible' });
  await transfer.getByLabel("Recipient's Flow address").fill(buyer.address);
  await transfer.getByRole('button', { name: 'Transfer' }).click();
  await expect(transfer.getByText('already in this wallet')).toBeVisible();
  await transfer
    .getByLabel("Recipient's Flow address")
    .fill(seller.address.toUpperCase().replace('0X', '0x'));
  await transfer.getByRole('button', { name: 'Transfer' }).click();
  await approveInWallet(buyer.page);
  await expect(buyer.page.getByRole('heading', { name: 'Transfer sent' })).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(
      async () =>
        (await (await buyer.page.request.get(`/api/nfts/${kept.id}`)).json()).owner.wallet.walletAddress,
      {
        timeout: 15_000,
      },
    )
    .toBe(seller.address);
});
