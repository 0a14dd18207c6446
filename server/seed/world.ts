import { count, eq, sql } from 'drizzle-orm';
import type { BlueprintState, BlueprintType } from '#domain/enums';
import { centsToFusd, percentToRate } from '#domain/money';
import { recordMintActivity, recordPurchaseActivity } from '../activity/record';
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

/** A blueprint the world created, as its chain part needs it. */
interface SeededItem {
  id: string;
  flowBlueprintId: number;
  price: number;
  title: string;
  royaltyPercent: number;
  creator: AccountKey | null;
  state: BlueprintState;
  quantity: number;
}

/** What the steps of a seed share. */
interface Seeding {
  db: Database;
  media: MediaStore;
  client?: FlowClient | null;
  /** The world's one random sequence: the steps draw from it in a fixed order. */
  rnd: () => number;
  /** `h` hours from now. */
  hours: (h: number) => Date;
  result: SeedResult;
  created: SeededItem[];
  /** Counts the items across shops, so that every state, rarity and kind appears. */
  itemIndex: number;
}

export async function seedWorld(options: SeedOptions): Promise<SeedResult> {
  const { db, client } = options;
  const log = options.log ?? console;
  const now = options.now?.() ?? new Date();
  const run: Seeding = {
    db,
    media: options.media,
    client,
    rnd: prng('vitrine world'),
    hours: (h: number) => new Date(now.getTime() + h * 3_600_000),
    result: { storefronts: 0, blueprints: 0, packs: 0, nfts: 0, listings: 0 },
    created: [],
    itemIndex: 0,
  };
  // The back office's operator (README): signs in like every seeded account.
  await insertUser(db, {
    email: SEED_ADMIN_EMAIL,
    username: 'vitrine_admin',
    firstName: 'Vitrine',
    lastName: 'Operator',
    password: SEED_PASSWORD,
    role: 'admin',
  });
  for (const [shopIndex, shop] of shops.entries()) await seedShop(run, shopIndex, shop);
  const { result } = run;
  log.info(`seed: ${result.storefronts} storefronts, ${result.blueprints} blueprints, ${result.packs} packs`);

  if (client) Object.assign(result, await seedChain({ ...options, client }, run.created, now));
  return result;
}

type Shop = (typeof shops)[number];

/** A wallet on the chain (creators receive royalties; collectors buy, hold and resell). */
async function wallet(client: FlowClient | null | undefined): Promise<AccountKey | null> {
  if (!client) return null;
  const account = await createAccount(client);
  await setupAccount(client, account);
  return account;
}

/** A shop: its creator (with a wallet), its storefront, its packs and its items. */
async function seedShop(run: Seeding, shopIndex: number, shop: Shop) {
  const { db, media } = run;
  const creatorWallet = await wallet(run.client);
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
    createdAt: run.hours(-24 * (60 - shopIndex * 4)),
  });
  run.result.storefronts++;
  // Trading cards and games also sell packs: three blueprints each.
  if (shop.category === 'tradingCards' || shop.vanity === 'respawn-vault')
    await seedPack(run, shopIndex, shop, storefront.id);
  for (const [i, title] of shop.items.entries()) {
    const row = await seedItem(run, { shopIndex, shop, storefrontId: storefront.id, i, title });
    run.created.push({ ...row, creator: creatorWallet });
  }
}

/** A pack of three blueprints, sold only with the pack. */
async function seedPack(run: Seeding, shopIndex: number, shop: Shop, storefrontId: string) {
  const { db, media } = run;
  const sticker = shop.category === 'tradingCards';
  const pack = await insertPack(db, {
    storefrontId,
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
  run.result.packs++;
  for (const title of [`${pack.title} — Card A`, `${pack.title} — Card B`, `${pack.title} — Card C`]) {
    await insertBlueprint(db, {
      storefrontId,
      blueprintPackId: pack.id,
      title,
      description: `Part of ${pack.title}.`,
      // Sold only with the pack: listed at the pack's price.
      price: pack.price,
      quantity: 500,
      type: (sticker ? 'stickerInPack' : 'standaloneInPack') as BlueprintType,
      rarityLevel: rarities[Math.floor(run.rnd() * rarities.length)]!,
      previewImageUrl: await artImage(media, 'preview', title, 1000, 1000),
      royaltyPercent: 10,
      totalFeePercent: 5,
      createdAt: run.hours(-24 * (40 - shopIndex)),
    });
    run.result.blueprints++;
  }
}

/**
 * An item's sale terms by its place among all items (`kind`, 0–10): sold out, free (claimed, not
 * bought), a drop to come in under 99 hours (hh:mm:ss) or above (a day count), a live drop,
 * printed, a one-of-one; else on sale. Price, quantity and what is left are drawn at random.
 */
function saleTerms(run: Seeding, kind: number, shopIndex: number) {
  const { rnd, hours } = run;
  const terms = {
    state: 'active' as BlueprintState,
    price: [500, 900, 1250, 2000, 2500, 4000, 7500, 12000, 25000][Math.floor(rnd() * 9)]!,
    quantity: [10, 25, 50, 100, 250, 1000][Math.floor(rnd() * 6)]!,
    quantityAvailable: 0,
    availableTime: null as Date | null,
    drop: false,
  };
  terms.quantityAvailable = Math.max(1, Math.floor(terms.quantity * (0.3 + rnd() * 0.7)));
  const upcoming = (at: Date) =>
    Object.assign(terms, {
      state: 'available',
      drop: true,
      availableTime: at,
      quantityAvailable: terms.quantity,
    });
  if (kind === 0) Object.assign(terms, { state: 'soldOut', quantityAvailable: 0 });
  else if (kind === 1) terms.price = 0;
  else if (kind === 2) upcoming(hours(30 + shopIndex));
  else if (kind === 3) upcoming(hours(24 * 9 + shopIndex));
  else if (kind === 4) Object.assign(terms, { drop: true, availableTime: hours(-48) });
  else if (kind === 5) terms.state = 'printed';
  else if (kind === 7) Object.assign(terms, { quantity: 1, quantityAvailable: 1, price: 50000 });
  return terms;
}

/** One of a shop's items, with its artwork (a video for a music or film shop's first). */
async function seedItem(
  run: Seeding,
  at: { shopIndex: number; shop: Shop; storefrontId: string; i: number; title: string },
): Promise<Omit<SeededItem, 'creator'>> {
  const { db, media } = run;
  const { shopIndex, shop, i, title } = at;
  const itemIndex = ++run.itemIndex;
  const terms = saleTerms(run, itemIndex % 11, shopIndex);
  const type: BlueprintType = title.startsWith('Sticker') ? 'sticker' : 'standalone';
  const video = i === 0 && (shop.category === 'music' || shop.category === 'filmTv');
  const previewImageUrl = await artImage(media, 'preview', `${shop.name} ${title}`, 1000, 1000);
  const row = await insertBlueprint(db, {
    storefrontId: at.storefrontId,
    title,
    description: `${title} — ${shop.bio} Edition of ${terms.quantity}.`,
    ...terms,
    type,
    rarityLevel: rarities[(itemIndex + shopIndex) % rarities.length]!,
    previewImageUrl,
    assetUrl: video ? await artVideo(media, `${shop.name} ${title}`) : previewImageUrl,
    royaltyPercent: [5, 7.5, 10][itemIndex % 3]!,
    totalFeePercent: 5,
    createdAt: run.hours(-24 * (30 - i) - shopIndex),
  });
  run.result.blueprints++;
  const { price, state, quantity } = terms;
  return {
    id: row.id,
    flowBlueprintId: row.flowBlueprintId,
    price,
    title,
    royaltyPercent: row.royaltyPercent,
    state,
    quantity,
  };
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
  items: SeededItem[],
  now: Date,
): Promise<Pick<SeedResult, 'nfts' | 'listings'>> {
  const { db, client } = options;
  const log = options.log ?? console;
  await registerOnSale(db, client, items);
  const accounts = await seedCollectors(db, client);
  const counts = { minted: 0, listings: 0 };
  const bought = items.filter(
    (b) => (b.state === 'active' || b.state === 'printed' || b.state === 'soldOut') && b.price > 0,
  );
  for (const [i, item] of bought.slice(0, 18).entries()) {
    const editions = 1 + (i % 3);
    for (let serial = 1; serial <= Math.min(editions, item.quantity); serial++) {
      const owner = accounts[(i + serial) % accounts.length]!;
      const purchasedOn = new Date(now.getTime() - (bought.length - i) * 3_600_000 * 7 - serial * 600_000);
      const nftId = await sellEdition(db, client, { item, serial, owner, purchasedOn });
      counts.minted++;
      // Every third NFT is back on the market at a markup.
      if (counts.minted % 3 === 0) {
        await relist(db, client, { owner, nftId, price: Math.round(item.price * 1.4), now });
        counts.listings++;
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
    `seed: ${counts.minted} NFTs minted on ${client.config.network} to ${accounts.length} collectors, ${counts.listings} resale listings`,
  );
  return { nfts: counts.minted, listings: counts.listings };
}

/**
 * Items on sale (or sold out) are registered on chain, as publishing does for a creator's; drops
 * still to come (available) are drafts their creator may edit and publish.
 */
async function registerOnSale(db: Database, client: FlowClient, items: SeededItem[]) {
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
}

type Collector = { key: AccountKey; userId: string };

/** The collectors: wallets with FUSD, and accounts whose identity verification is approved. */
async function seedCollectors(db: Database, client: FlowClient): Promise<Collector[]> {
  const accounts: Collector[] = [];
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
  return accounts;
}

/** An edition minted to its collector (royalties to the creator), with its purchase on record. */
async function sellEdition(
  db: Database,
  client: FlowClient,
  sale: { item: SeededItem; serial: number; owner: Collector; purchasedOn: Date },
): Promise<string> {
  const { item, serial, owner, purchasedOn } = sale;
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
  await db.transaction(async (tx) => {
    const [purchase] = await tx
      .insert(nftPurchases)
      .values({
        transactionId: nft.id,
        buyerId: owner.userId,
        walletAddress: owner.key.address,
        nftId: nft.nftId,
        type: 'directPurchase',
        amount: item.price,
        purchasedOn,
      })
      .returning();
    await recordMintActivity(tx, {
      nftId: nft.nftId,
      to: owner.key.address,
      transactionId: nft.id,
      at: purchasedOn,
    });
    await recordPurchaseActivity(tx, purchase!);
  });
  return nft.nftId;
}

/** An owned NFT listed for resale (price in cents), on chain and on record. */
async function relist(
  db: Database,
  client: FlowClient,
  l: { owner: Collector; nftId: string; price: number; now: Date },
) {
  const listing = await createListing(client, l.owner.key, {
    nftId: l.nftId,
    price: centsToFusd(l.price),
    platformAddress: client.config.admin.address,
    platformFeeRate: '0.05',
  });
  await upsertListing(
    db,
    {
      blockchainListingId: listing.listingResourceId,
      seller: l.owner.key.address,
      nftId: l.nftId,
      price: l.price,
      listedOn: l.now,
    },
    l.now,
  );
}
