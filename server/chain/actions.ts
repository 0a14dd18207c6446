import { type ArgsFn, eventsOf, type FlowClient, type FlowEvent, type SealedTransaction } from './client';
import type { AccountKey } from './config';

/**
 * Vitrine's scripts and transactions, one function each. UInt64
 * values (token, blueprint and listing ids) travel as decimal strings, UFix64 amounts as decimal
 * strings with up to 8 places ("12.5"); the chain answers amounts with 8 places ("12.50000000").
 */

export type UInt64Input = string | number | bigint;

/** A UInt64 as the decimal string that JSON-Cadence wants. */
export function uint64(value: UInt64Input): string {
  const s = String(value);
  if (!/^\d+$/.test(s) || BigInt(s) > 0xffff_ffff_ffff_ffffn) throw new Error(`not a UInt64: ${s}`);
  return s;
}

/** A UFix64 as JSON-Cadence wants it: digits, a point, 1 to 8 decimals. */
export function ufix64(value: string | number): string {
  const s = typeof value === 'number' ? value.toFixed(8) : value.trim();
  if (!/^\d+(\.\d{1,8})?$/.test(s)) throw new Error(`not a UFix64 amount: ${value}`);
  return s.includes('.') ? s : `${s}.0`;
}

export interface NftData {
  id: string;
  blueprintId: string;
  serialNumber: string;
  metadata: Record<string, string>;
  owner: string;
}

export interface CollectionCheck {
  collection: boolean;
  fusdVault: boolean;
  ready: boolean;
}

export interface ListingData {
  listingResourceID: string;
  seller: string;
  nftType: string;
  nftID: string;
  salePaymentVaultType: string;
  salePrice: string;
  saleCuts: { receiver: string; amount: string }[];
  customID: string | null;
  commissionAmount: string;
  expiry: string;
  purchased: boolean;
}

/** Vitrine's fixed listing terms (every listing the same): expiry in seconds (4102444800000 ms), no commission, custom id. */
export const LISTING_EXPIRY_SECONDS = 4_102_444_800;
export const LISTING_CUSTOM_ID = 'vitrine';

// ---- scripts

export function getFusdBalance(client: FlowClient, address: string): Promise<string> {
  return client.query('scripts/get_fusd_balance.cdc', (arg, t) => [arg(address, t.Address)]);
}

export function checkCollection(client: FlowClient, address: string): Promise<CollectionCheck> {
  return client.query('scripts/check_collection.cdc', (arg, t) => [arg(address, t.Address)]);
}

export async function getNftIds(client: FlowClient, address: string): Promise<string[]> {
  const ids = await client.query<string[]>('scripts/get_nft_ids.cdc', (arg, t) => [arg(address, t.Address)]);
  return ids.map(String).sort(byNumber);
}

/** The NFTs `address` holds (all, or those of `ids`), ordered by id. */
export async function getNfts(client: FlowClient, address: string, ids?: UInt64Input[]): Promise<NftData[]> {
  const nfts = await client.query<NftData[]>('scripts/get_nfts.cdc', (arg, t) => [
    arg(address, t.Address),
    arg(ids ? ids.map(uint64) : null, t.Optional(t.Array(t.UInt64))),
  ]);
  return nfts
    .map((n) => ({
      ...n,
      id: String(n.id),
      blueprintId: String(n.blueprintId),
      serialNumber: String(n.serialNumber),
    }))
    .sort((a, b) => byNumber(a.id, b.id));
}

export function ownsNft(client: FlowClient, address: string, id: UInt64Input): Promise<boolean> {
  return client.query('scripts/owns_nft.cdc', (arg, t) => [
    arg(address, t.Address),
    arg(uint64(id), t.UInt64),
  ]);
}

/** The token id of an edition, or null when it has not been minted. */
export async function getEditionToken(
  client: FlowClient,
  blueprintId: UInt64Input,
  serialNumber: UInt64Input,
): Promise<string | null> {
  const id = await client.query<string | null>('scripts/get_edition_token.cdc', (arg, t) => [
    arg(uint64(blueprintId), t.UInt64),
    arg(uint64(serialNumber), t.UInt64),
  ]);
  return id === null ? null : String(id);
}

export async function getListingIds(client: FlowClient, address: string): Promise<string[]> {
  const ids = await client.query<string[]>('scripts/get_listing_ids.cdc', (arg, t) => [
    arg(address, t.Address),
  ]);
  return ids.map(String).sort(byNumber);
}

export async function getListing(
  client: FlowClient,
  address: string,
  listingResourceId: UInt64Input,
): Promise<ListingData | null> {
  const listing = await client.query<ListingData | null>('scripts/get_listing.cdc', (arg, t) => [
    arg(address, t.Address),
    arg(uint64(listingResourceId), t.UInt64),
  ]);
  if (!listing) return null;
  return {
    ...listing,
    listingResourceID: String(listing.listingResourceID),
    nftID: String(listing.nftID),
    expiry: String(listing.expiry),
  };
}

// ---- transactions

/** Collection + FUSD vault for `account`; running it again changes nothing. */
export function setupAccount(client: FlowClient, account: AccountKey): Promise<SealedTransaction> {
  return client.transact('transactions/setup_account.cdc', { signer: account });
}

export interface MintNftInput {
  to: string;
  blueprintId: UInt64Input;
  serialNumber: UInt64Input;
  metadata: Record<string, string>;
  /** Receiver address → cut (0.05 is 5%), paid into FUSD vaults. */
  royalties?: Record<string, string>;
  onTransactionId?: (id: string) => void | Promise<void>;
}

export function mintNftArgs(input: MintNftInput): ArgsFn {
  return (arg, t) => [
    arg(input.to, t.Address),
    arg(uint64(input.blueprintId), t.UInt64),
    arg(uint64(input.serialNumber), t.UInt64),
    arg(
      Object.entries(input.metadata).map(([key, value]) => ({ key, value })),
      t.Dictionary({ key: t.String, value: t.String }),
    ),
    arg(
      Object.entries(input.royalties ?? {}).map(([key, value]) => ({ key, value: ufix64(value) })),
      t.Dictionary({ key: t.Address, value: t.UFix64 }),
    ),
  ];
}

/** The token id minted by a sealed mint transaction. */
export function mintedTokenId(
  client: FlowClient,
  tx: { id: string; events: SealedTransaction['events'] },
): string {
  const minted = eventsOf(tx, client.eventType('VitrineNFT', 'Minted'))[0];
  if (!minted) throw new Error(`transaction ${tx.id} emitted no VitrineNFT.Minted event`);
  return String(minted.id);
}

/** Admin: mints an edition to `to` (which must be set up). */
export async function mintNft(
  client: FlowClient,
  input: MintNftInput,
): Promise<SealedTransaction & { nftId: string }> {
  const tx = await client.transact('transactions/mint_nft.cdc', {
    signer: client.config.admin,
    args: mintNftArgs(input),
    onTransactionId: input.onTransactionId,
  });
  return { ...tx, nftId: mintedTokenId(client, tx) };
}

/** Admin: mints `amount` FUSD into the vault of `to`. */
export function mintFusd(
  client: FlowClient,
  to: string,
  amount: string | number,
): Promise<SealedTransaction> {
  return client.transact('transactions/mint_fusd.cdc', {
    signer: client.config.admin,
    args: (arg, t) => [arg(to, t.Address), arg(ufix64(amount), t.UFix64)],
  });
}

export function transferFusd(
  client: FlowClient,
  from: AccountKey,
  to: string,
  amount: string | number,
): Promise<SealedTransaction> {
  return client.transact('transactions/transfer_fusd.cdc', {
    signer: from,
    args: (arg, t) => [arg(to, t.Address), arg(ufix64(amount), t.UFix64)],
  });
}

/** Moves several NFTs in one transaction (all or none). */
export function transferNfts(
  client: FlowClient,
  from: AccountKey,
  to: string,
  ids: UInt64Input[],
): Promise<SealedTransaction> {
  return client.transact('transactions/transfer_nfts.cdc', {
    signer: from,
    args: (arg, t) => [arg(to, t.Address), arg(ids.map(uint64), t.Array(t.UInt64))],
  });
}

export interface CreateListingInput {
  nftId: UInt64Input;
  /** Total price in FUSD. */
  price: string | number;
  /** Where the platform fee goes, and its share of the price (0.05 is 5 %); royalties come from the NFT. */
  platformAddress?: string;
  platformFeeRate?: string | number;
}

/** Lists an NFT on the seller's NFTStorefrontV2 storefront; answers the listing resource id. */
export async function createListing(
  client: FlowClient,
  seller: AccountKey,
  input: CreateListingInput,
): Promise<SealedTransaction & { listingResourceId: string }> {
  const tx = await client.transact('transactions/create_listing.cdc', {
    signer: seller,
    args: (arg, t) => [
      arg(uint64(input.nftId), t.UInt64),
      arg(ufix64(input.price), t.UFix64),
      arg(input.platformAddress ?? null, t.Optional(t.Address)),
      arg(ufix64(input.platformFeeRate ?? 0), t.UFix64),
    ],
  });
  const available = eventsOf(tx, client.eventType('NFTStorefrontV2', 'ListingAvailable'))[0];
  if (!available) throw new Error(`transaction ${tx.id} emitted no ListingAvailable event`);
  return { ...tx, listingResourceId: String(available.listingResourceID) };
}

export function removeListing(
  client: FlowClient,
  seller: AccountKey,
  listingResourceId: UInt64Input,
): Promise<SealedTransaction> {
  return client.transact('transactions/remove_listing.cdc', {
    signer: seller,
    args: (arg, t) => [arg(uint64(listingResourceId), t.UInt64)],
  });
}

/** Buys a listing with the buyer's FUSD; the NFT lands in the buyer's collection. */
export function buyListing(
  client: FlowClient,
  buyer: AccountKey,
  storefrontAddress: string,
  listingResourceId: UInt64Input,
): Promise<SealedTransaction> {
  return client.transact('transactions/buy_listing.cdc', {
    signer: buyer,
    args: (arg, t) => [arg(storefrontAddress, t.Address), arg(uint64(listingResourceId), t.UInt64)],
  });
}

function byNumber(a: string, b: string): number {
  const d = BigInt(a) - BigInt(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** A blueprint's terms on chain (VitrineBlueprints.Blueprint). */
export interface ChainBlueprint {
  id: string;
  maxEditions: string;
  price: string;
  royalty: string;
  metadata: Record<string, string>;
  open: boolean;
}

export interface RegisterBlueprintInput {
  blueprintId: UInt64Input;
  maxEditions: UInt64Input;
  /** FUSD, e.g. "25.00000000". */
  price: string;
  /** Creator royalty cut, e.g. "0.10000000" for 10%. */
  royalty: string;
  metadata: Record<string, string>;
}

export function registerBlueprintArgs(input: RegisterBlueprintInput): ArgsFn {
  return (arg, t) => [
    arg(uint64(input.blueprintId), t.UInt64),
    arg(uint64(input.maxEditions), t.UInt64),
    arg(ufix64(input.price), t.UFix64),
    arg(ufix64(input.royalty), t.UFix64),
    arg(
      Object.entries(input.metadata).map(([key, value]) => ({ key, value })),
      t.Dictionary({ key: t.String, value: t.String }),
    ),
  ];
}

/** The registration of a blueprint, or null when it was never registered. */
export async function getChainBlueprint(
  client: FlowClient,
  blueprintId: UInt64Input,
): Promise<ChainBlueprint | null> {
  const found = await client.query<ChainBlueprint | null>('scripts/get_blueprint.cdc', (arg, t) => [
    arg(uint64(blueprintId), t.UInt64),
  ]);
  return found ?? null;
}

/** Admin: registers several blueprints in one transaction (each as register_blueprint does). */
export function registerBlueprints(
  client: FlowClient,
  items: Array<Omit<RegisterBlueprintInput, 'metadata'>>,
): Promise<SealedTransaction> {
  return client.transact('transactions/register_blueprints.cdc', {
    signer: client.config.admin,
    args: (arg, t) => [
      arg(
        items.map((b) => uint64(b.blueprintId)),
        t.Array(t.UInt64),
      ),
      arg(
        items.map((b) => uint64(b.maxEditions)),
        t.Array(t.UInt64),
      ),
      arg(
        items.map((b) => ufix64(b.price)),
        t.Array(t.UFix64),
      ),
      arg(
        items.map((b) => ufix64(b.royalty)),
        t.Array(t.UFix64),
      ),
    ],
  });
}

/** What the access node says of a transaction right now. */
export type TransactionCheck =
  | { state: 'unknown' }
  /** Sent but not sealed yet (pending, finalized or executed). */
  | { state: 'pending' }
  /** Reverted or expired. */
  | { state: 'failed'; error: string }
  | { state: 'sealed'; events: FlowEvent[] };

const TX_SEALED = 4;
const TX_EXPIRED = 5;

/**
 * Asks the access node once for the transaction's status (within `timeoutMs`, else a
 * FlowRequestError) and never waits for it to seal.
 */
export async function checkTransaction(
  client: FlowClient,
  id: string,
  timeoutMs = 3000,
): Promise<TransactionCheck> {
  const status = await client.transactionStatusOnce(id, timeoutMs);
  if (!status) return { state: 'unknown' };
  if (status.errorMessage) return { state: 'failed', error: status.errorMessage };
  if (Number(status.status) === TX_EXPIRED) return { state: 'failed', error: 'expired' };
  if (Number(status.status) < TX_SEALED) return { state: 'pending' };
  return { state: 'sealed', events: status.events as unknown as FlowEvent[] };
}
