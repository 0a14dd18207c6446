import { randomBytes } from 'node:crypto';
import type { PayoutState } from '#domain/enums';
import { nftPurchases, nfts, payoutRequests } from '../../../server/db/schema';
import { insertBlueprint, insertStorefront } from '../../../server/seed/factory';
import { flowAddress, register, type TestApi } from './harness';

/** Fixtures of the sales and payout suites: storefronts, blueprints and recorded purchases. */

const letters = () => randomBytes(5).toString('hex');
let tokenIds = 0;

/** A registered user with a storefront. */
export async function creator(t: TestApi) {
  const me = await register(t);
  const storefront = await insertStorefront(t.database.db, {
    ownerId: me.id,
    name: `Shop ${letters()}`,
    vanityUrl: `shop-${letters()}`,
  });
  return { ...me, storefront };
}

export async function blueprint(
  t: TestApi,
  storefrontId: string,
  values: { title?: string; price?: number; royaltyPercent?: number; totalFeePercent?: number } = {},
) {
  return insertBlueprint(t.database.db, {
    storefrontId,
    title: values.title ?? `Item ${letters()}`,
    price: values.price ?? 2500,
    quantity: 1000,
    royaltyPercent: values.royaltyPercent ?? 10,
    totalFeePercent: values.totalFeePercent ?? 5,
    previewImageUrl: '/media/seed/preview.png',
  });
}

/**
 * Records a purchase of edition `serial` of the blueprint: the minted NFT and its purchase row
 * (type directPurchase unless told; saleListing is a resale).
 */
export async function sale(
  t: TestApi,
  bp: { flowBlueprintId: number },
  values: {
    serial: number;
    amount: number;
    purchasedOn: Date;
    buyerId?: string | null;
    type?: string;
    /** An NFT already minted (a resale of it); else the edition is minted here. */
    nftId?: string;
    /** The resale listing the purchase completed. */
    blockchainListingId?: string;
  },
) {
  const db = t.database.db;
  let nftId = values.nftId;
  if (!nftId) {
    nftId = `${9_000_000 + ++tokenIds}${randomBytes(2).readUInt16BE()}`;
    await db.insert(nfts).values({
      id: nftId,
      blueprintId: bp.flowBlueprintId,
      serialNumber: values.serial,
      owner: flowAddress(),
    });
  }
  const [row] = await db
    .insert(nftPurchases)
    .values({
      transactionId: randomBytes(32).toString('hex'),
      buyerId: values.buyerId ?? null,
      walletAddress: flowAddress(),
      nftId,
      type: values.type ?? 'directPurchase',
      blockchainListingId: values.blockchainListingId ?? null,
      amount: values.amount,
      purchasedOn: values.purchasedOn,
    })
    .returning();
  return row!;
}

/** A payout request written directly, in any state (as an administrator's processing would leave it). */
export async function payoutRequest(
  t: TestApi,
  owner: { id: string; storefront: { id: string } },
  amount: number,
  state: PayoutState,
  createdAt: Date,
) {
  const [row] = await t.database.db
    .insert(payoutRequests)
    .values({
      storefrontId: owner.storefront.id,
      userId: owner.id,
      amount,
      state,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  return row!;
}

export const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n, 12));
