import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type {
  BlueprintState,
  BlueprintType,
  RarityLevel,
  Role,
  StorefrontCategory,
  StorefrontTheme,
} from '#domain/enums';
import { hashPassword } from '../auth/passwords';
import type { Executor } from '../db';
import { blueprintPacks, blueprints, kycVerifications, storefronts, users } from '../db/schema';

/**
 * Inserts catalog rows with sensible defaults: the seed builds its world with these, and the API
 * tests their fixtures.
 */
export async function insertUser(
  db: Executor,
  values: {
    email: string;
    username: string;
    firstName: string;
    lastName?: string;
    walletAddress?: string;
    password?: string;
    role?: Role;
  },
) {
  const [row] = await db
    .insert(users)
    .values({
      email: values.email,
      username: values.username,
      firstName: values.firstName,
      lastName: values.lastName ?? '',
      walletAddress: values.walletAddress ?? null,
      passwordHash: await hashPassword(values.password ?? randomBytes(18).toString('base64url')),
      ...(values.role && { role: values.role }),
    })
    .returning();
  return row!;
}

/**
 * An identity verification approved on record (the seeded world's sellers: nobody walked them
 * through the provider, so their record names no provider session).
 */
export async function insertApprovedKyc(
  db: Executor,
  user: { id: string; firstName: string; lastName: string },
  at: Date,
) {
  await db.insert(kycVerifications).values({
    userId: user.id,
    status: 'approved',
    code: '9001',
    firstName: user.firstName,
    lastName: user.lastName,
    decisionTime: at,
    updatedAt: at,
  });
}

export interface StorefrontValues {
  ownerId: string;
  name: string;
  vanityUrl: string;
  description?: string;
  category?: StorefrontCategory | null;
  theme?: StorefrontTheme;
  logoUrl?: string | null;
  bannerUrl?: string | null;
  contactEmail?: string | null;
  enabled?: boolean;
  createdAt?: Date;
}
export async function insertStorefront(db: Executor, values: StorefrontValues) {
  const [row] = await db.insert(storefronts).values(values).returning();
  return row!;
}

export interface BlueprintValues {
  storefrontId: string;
  title: string;
  price: number;
  quantity: number;
  quantityAvailable?: number;
  description?: string;
  state?: BlueprintState;
  type?: BlueprintType;
  rarityLevel?: RarityLevel;
  visible?: boolean;
  drop?: boolean;
  availableTime?: Date | null;
  previewImageUrl?: string | null;
  assetUrl?: string | null;
  royaltyPercent?: number;
  totalFeePercent?: number;
  blueprintPackId?: string | null;
  createdAt?: Date;
}
/**
 * A blueprint of a pack is sold only with its pack, so it is listed at its pack's price (the
 * marketplace sorts and filters it there, never as a free item): `price` is the pack's for it.
 */
export async function insertBlueprint(db: Executor, values: BlueprintValues) {
  let { price } = values;
  if (values.blueprintPackId) {
    const [pack] = await db
      .select({ price: blueprintPacks.price })
      .from(blueprintPacks)
      .where(eq(blueprintPacks.id, values.blueprintPackId));
    if (!pack) throw new Error(`no pack ${values.blueprintPackId}`);
    price = pack.price;
  }
  const [row] = await db
    .insert(blueprints)
    .values({
      state: 'active',
      ...values,
      price,
      quantityAvailable: values.quantityAvailable ?? values.quantity,
      assetUrl: values.assetUrl ?? values.previewImageUrl ?? null,
    })
    .returning();
  return row!;
}

export interface PackValues {
  storefrontId: string;
  title: string;
  price: number;
  quantity: number;
  quantityAvailable?: number;
  description?: string;
  coverImageUrl?: string | null;
  state?: 'created' | 'available' | 'printing' | 'printed' | 'soldOut' | 'canceled';
  type?: 'standalone' | 'sticker';
  rarityLevel?: RarityLevel;
  drop?: boolean;
  availableTime?: Date | null;
  royaltyPercent?: number;
  totalFeePercent?: number;
}
export async function insertPack(db: Executor, values: PackValues) {
  const [row] = await db
    .insert(blueprintPacks)
    .values({ state: 'available', ...values, quantityAvailable: values.quantityAvailable ?? values.quantity })
    .returning();
  return row!;
}
