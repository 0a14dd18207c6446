import { count, eq, sql } from 'drizzle-orm';
import type { BlueprintState, BlueprintType } from '#domain/enums';
import { centsToFusd, percentToRate } from '#domain/money';
import { createAccount } from '../chain/accounts';
import { createListing, mintFusd, mintNft, registerBlueprints, setupAccount } from '../chain/actions';
import type { FlowClient } from '../chain/client';
import type { AccountKey } from '../chain/config';
import { upsertListing, upsertNft } from '../chain/facts';
import type { Log } from '../clock';
import type { Database } from '../db';
import { blueprintRegistrations, blueprints, nftPurchases, storefronts } from '../db/schema';
import { insertApprovedKyc, insertBlueprint, insertPack, insertStorefront, insertUser } from './factory';
import { artImage, artVideo, type MediaStore, prng } from './media';
import { rarities, shops } from './shops';

/**
 * The embedded world (issue 4): storefronts in every category and both themes, blueprints in every
 * state and rarity (free items, sold-out editions, drops to come and live ones, packs, stickers),
 * artwork made locally, and — with a chain — NFTs minted on it to collectors, their purchase history
 * and resale listings. Seeded accounts share the password below so QA can sign in as them.
 */
export const SEED_PASSWORD = 'vitrine-demo';
/** The seeded admin account (role admin). */
export const SEED_ADMIN_EMAIL = 'admin@vitrine.test';

export interface SeedOptions {
  db: Database;
  media: MediaStore;
  client?: FlowClient | null;
  log?: Pick<Log, 'info'>;
  now?: () => Date;
}

export interface SeedResult {
  storefronts: number;
  blueprints: number;
  packs: number;
  nfts: number;
  listings: number;
}

/** Whether the catalog is empty (the server seeds on first start). */
export async function catalogIsEmpty(db: Database): Promise<boolean> {
  const [{ n }] = (await db.select({ n: count() }).from(storefronts)) as [{ n: number }];
  return Number(n) === 0;
}

export async function seedWorld(options: SeedOptions): Promise<SeedResult> {
  const { db, media, client } = options;
  const log = options.log ?? console;
  const now = options.now?.() ?? new Date();
  const rnd = prng('vitrine world');
  const hours = (h: number) => new Date(now.getTime() + h * 3_600_000);
  const result: SeedResult = { storefronts: 0, blueprints: 0, packs: 0, nfts: 0, listings: 0 };

  // Wallets on the chain (creators receive royalties; collectors buy, hold and resell).
  const wallet = async (): Promise<AccountKey | null> => {
    if (!client) return null;
    const account = await createAccount(client);
    await setupAccount(client, account);
    return account;
  };

  const created: Array<{
    id: string;
    flowBlueprintId: number;
    price: number;
    title: string;
    royaltyPercent: number;
    creator: AccountKey | null;
    state: BlueprintState;
    quantity: number;
  }> = [];
  // The back office's operator (README): signs in like every seeded account.
  await insertUser(db, {
    email: SEED_ADMIN_EMAIL,
    username: 'vitrine_admin',
    firstName: 'Vitrine',
    lastName: 'Operator',
    password: SEED_PASSWORD,
    role: 'admin',
  });
  let itemIndex = 0;
  for (const [shopIndex, shop] of shops.entries()) {
    const creatorWallet = await wallet();
    const creator = await insertUser(db, {
      email: `${shop.creator[0].toLowerCase()}@${shop.vanity}.vitrine.test`,
      username: `${shop.creator[0]}_${shop.creator[1]}`.toLowerCase(),
      firstName: shop.creator[0],
      lastName: shop.creator[1],
      walletAddress: creatorWallet?.address,
      password: SEED_PASSWORD,
    });
    const storefront = await insertStorefront(db, {
      ownerId: creator.id,
      name: shop.name,
      vanityUrl: shop.vanity,
      description: shop.bio,
      category: shop.category,
      theme: shop.theme,
      logoUrl: await artImage(media, 'logo', `${shop.name} logo`, 400, 400),
      bannerUrl: await artImage(media, 'banner', `${shop.name} banner`, 1500, 300),
      contactEmail: `hello@${shop.vanity}.vitrine.test`,
      createdAt: hours(-24 * (60 - shopIndex * 4)),
    });
    result.storefronts++;

    // Trading cards and games also sell packs: three blueprints each.
    if (shop.category === 'tradingCards' || shop.vanity === 'respawn-vault') {
      const sticker = shop.category === 'tradingCards';
      const pack = await insertPack(db, {
        storefrontId: storefront.id,
        title: sticker ? 'Booster Pack: Series 1' : 'Relic Bundle',
        description: 'Three collectibles in one purchase, revealed in your wallet.',
        coverImageUrl: await artImage(media, 'cover', `${shop.name} pack`, 1000, 1000),
        price: sticker ? 1500 : 4000,
        quantity: 500,
        quantityAvailable: 430,
        type: sticker ? 'sticker' : 'standalone',
        rarityLevel: 'rare',
        royaltyPercent: 10,
        totalFeePercent: 5,
      });
      result.packs++;
      for (const title of [`${pack.title} — Card A`, `${pack.title} — Card B`, `${pack.title} — Card C`]) {
        await insertBlueprint(db, {
          storefrontId: storefront.id,
          blueprintPackId: pack.id,
          title,
          description: `Part of ${pack.title}.`,
          // Sold only with the pack: listed at the pack's price.
          price: pack.price,
          quantity: 500,
          type: (sticker ? 'stickerInPack' : 'standaloneInPack') as BlueprintType,
          rarityLevel: rarities[Math.floor(rnd() * rarities.length)]!,
          previewImageUrl: await artImage(media, 'preview', title, 1000, 1000),
          royaltyPercent: 10,
          totalFeePercent: 5,
          createdAt: hours(-24 * (40 - shopIndex)),
        });
        result.blueprints++;
      }
    }

    for (const [i, title] of shop.items.entries()) {
      itemIndex++;
      // Every shop gets variety; across shops every state, rarity and kind appears.
      const kind = itemIndex % 11;
      let state: BlueprintState = 'active';
      let price = [500, 900, 1250, 2000, 2500, 4000, 7500, 12000, 25000][Math.floor(rnd() * 9)]!;
      let quantity = [10, 25, 50, 100, 250, 1000][Math.floor(rnd() * 6)]!;
      let quantityAvailable = Math.max(1, Math.floor(quantity * (0.3 + rnd() * 0.7)));
      let availableTime: Date | null = null;
      let drop = false;
      let type: BlueprintType = 'standalone';
      if (kind === 0) {
        state = 'soldOut';
        quantityAvailable = 0;
      } else if (kind === 1) {
        price = 0; // free: claimed, not bought
      } else if (kind === 2) {
        state = 'available';
        drop = true;
        availableTime = hours(30 + shopIndex); // under 99 hours: hh:mm:ss
        quantityAvailable = quantity;
      } else if (kind === 3) {
        state = 'available';
        drop = true;
        availableTime = hours(24 * 9 + shopIndex); // above 99 hours: a day count
        quantityAvailable = quantity;
      } else if (kind === 4) {
        drop = true;
        availableTime = hours(-48); // a live drop
      } else if (kind === 5) {
        state = 'printed';
      } else if (kind === 7) {
        quantity = 1;
        quantityAvailable = 1;
        price = 50000;
      }
      if (title.startsWith('Sticker')) type = 'sticker';
      const video = i === 0 && (shop.category === 'music' || shop.category === 'filmTv');
      const previewImageUrl = await artImage(media, 'preview', `${shop.name} ${title}`, 1000, 1000);
      const row = await insertBlueprint(db, {
        storefrontId: storefront.id,
        title,
        description: `${title} — ${shop.bio} Edition of ${quantity}.`,
        price,
        quantity,
        quantityAvailable,
        state,
        type,
        drop,
        availableTime,
        rarityLevel: rarities[(itemIndex + shopIndex) % rarities.length]!,
        previewImageUrl,
        assetUrl: video ? await artVideo(media, `${shop.name} ${title}`) : previewImageUrl,
        royaltyPercent: [5, 7.5, 10][itemIndex % 3]!,
        totalFeePercent: 5,
        createdAt: hours(-24 * (30 - i) - shopIndex),
      });
      result.blueprints++;
      created.push({
        id: row.id,
        flowBlueprintId: row.flowBlueprintId,
        price,
        title,
        royaltyPercent: row.royaltyPercent,
        creator: creatorWallet,
        state,
        quantity,
      });
    }
  }
  log.info(`seed: ${result.storefronts} storefronts, ${result.blueprints} blueprints, ${result.packs} packs`);

  if (client) Object.assign(result, await seedChain({ ...options, client }, created, now));
  return result;
}

const collectors: Array<[first: string, last: string]> = [
  ['Mina', 'Kato'],
  ['Theo', 'Baptiste'],
  ['Greta', 'Holm'],
  ['Samir', 'Nasser'],
];

/** Collectors with wallets buy editions (minted to them), and resell some of them. */
async function seedChain(
  options: SeedOptions & { client: FlowClient },
  items: Array<{
    id: string;
    flowBlueprintId: number;
    price: number;
    title: string;
    royaltyPercent: number;
    creator: AccountKey | null;
    state: BlueprintState;
    quantity: number;
  }>,
  now: Date,
): Promise<Pick<SeedResult, 'nfts' | 'listings'>> {
  const { db, client } = options;
  const log = options.log ?? console;
  // Items on sale (or sold out) are registered on chain, as publishing does for a creator's; drops
  // still to come (available) are drafts their creator may edit and publish.
  const onSale = items.filter((b) => ['active', 'printed', 'soldOut'].includes(b.state));
  const registered = await registerBlueprints(
    client,
    onSale.map((b) => ({
      blueprintId: b.flowBlueprintId,
      maxEditions: b.quantity,
      price: centsToFusd(b.price),
      royalty: percentToRate(b.royaltyPercent),
    })),
  );
  if (onSale.length)
    await db.insert(blueprintRegistrations).values(
      onSale.map((b) => ({
        blueprintId: b.id,
        flowBlueprintId: b.flowBlueprintId,
        status: 'sealed' as const,
        transactionId: registered.id,
        attempts: 1,
      })),
    );
  const accounts: Array<{ key: AccountKey; userId: string }> = [];
  for (const [first, last] of collectors) {
    const key = await createAccount(client);
    await setupAccount(client, key);
    await mintFusd(client, key.address, '500.0');
    const user = await insertUser(db, {
      email: `${first.toLowerCase()}@collectors.vitrine.test`,
      username: `${first}_${last}`.toLowerCase(),
      firstName: first,
      lastName: last,
      walletAddress: key.address,
      password: SEED_PASSWORD,
    });
    // Collectors resell what they own: their identity verification is approved on record.
    await insertApprovedKyc(db, user, new Date());
    accounts.push({ key, userId: user.id });
  }
  let minted = 0;
  let listings = 0;
  const bought = items.filter(
    (b) => (b.state === 'active' || b.state === 'printed' || b.state === 'soldOut') && b.price > 0,
  );
  for (const [i, item] of bought.slice(0, 18).entries()) {
    const editions = 1 + (i % 3);
    for (let serial = 1; serial <= Math.min(editions, item.quantity); serial++) {
      const owner = accounts[(i + serial) % accounts.length]!;
      const metadata = { title: item.title };
      const nft = await mintNft(client, {
        to: owner.key.address,
        blueprintId: item.flowBlueprintId,
        serialNumber: serial,
        metadata,
        ...(item.creator && item.royaltyPercent > 0
          ? { royalties: { [item.creator.address]: (item.royaltyPercent / 100).toFixed(8) } }
          : {}),
      });
      const purchasedOn = new Date(now.getTime() - (bought.length - i) * 3_600_000 * 7 - serial * 600_000);
      await upsertNft(
        db,
        {
          id: nft.nftId,
          blueprintId: item.flowBlueprintId,
          serialNumber: serial,
          owner: owner.key.address,
          metadata,
        },
        // Minted at its purchase, as the checkout mints: the edition's creation in its history.
        purchasedOn,
      );
      await db.insert(nftPurchases).values({
        transactionId: nft.id,
        buyerId: owner.userId,
        walletAddress: owner.key.address,
        nftId: nft.nftId,
        type: 'directPurchase',
        amount: item.price,
        purchasedOn,
      });
      minted++;
      // Every third NFT is back on the market at a markup.
      if (minted % 3 === 0) {
        const price = Math.round(item.price * 1.4);
        const listing = await createListing(client, owner.key, {
          nftId: nft.nftId,
          price: centsToFusd(price),
          platformAddress: client.config.admin.address,
          platformFeeRate: '0.05',
        });
        await upsertListing(
          db,
          {
            blockchainListingId: listing.listingResourceId,
            seller: owner.key.address,
            nftId: nft.nftId,
            price,
            listedOn: now,
          },
          now,
        );
        listings++;
      }
    }
    if (item.state !== 'soldOut') {
      await db
        .update(blueprints)
        .set({
          quantityAvailable: sql`greatest(${blueprints.quantityAvailable} - ${Math.min(editions, item.quantity)}, 0)`,
        })
        .where(eq(blueprints.id, item.id));
    }
  }
  log.info(
    `seed: ${minted} NFTs minted on ${client.config.network} to ${accounts.length} collectors, ${listings} resale listings`,
  );
  return { nfts: minted, listings };
}
