/** Enumerations of SPEC §3. */
export const roles = [
  'admin',
  'collector',
  'cronjob',
  'partnerAccount',
  'creator',
  'anonymous',
  'unknown',
] as const;
export type Role = (typeof roles)[number];

export const userStatuses = ['active', 'blocked', 'removed', 'unknown'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const kycStatuses = [
  'created',
  'approved',
  'resubmission_requested',
  'declined',
  'review',
  'expired',
  'abandoned',
  'unknown',
] as const;
export type KycStatus = (typeof kycStatuses)[number];

/** New accounts register with role creator (SPEC §6). */
export const REGISTRATION_ROLE: Role = 'creator';

/** Storefront categories and themes (SPEC §3 Storefront). */
export const storefrontCategories = [
  'collectibles',
  'digitalArt',
  'fashion',
  'filmTv',
  'gaming',
  'music',
  'photography',
  'sports',
  'tradingCards',
  'virtualRealEstate',
] as const;
export type StorefrontCategory = (typeof storefrontCategories)[number];
export const storefrontThemes = ['light', 'dark'] as const;
export type StorefrontTheme = (typeof storefrontThemes)[number];

/** Blueprint and pack states, statuses, types and rarity (SPEC §3, §4). */
export const blueprintStates = [
  'created',
  'available',
  'printing',
  'printed',
  'active',
  'soldOut',
  'canceled',
  'unknown',
] as const;
export type BlueprintState = (typeof blueprintStates)[number];
export const packStates = [
  'created',
  'available',
  'printing',
  'printed',
  'soldOut',
  'canceled',
  'unknown',
] as const;
export type PackState = (typeof packStates)[number];
export const blueprintStatuses = ['readyToPrint', 'readyToSell'] as const;
export type BlueprintStatus = (typeof blueprintStatuses)[number];
export const blueprintTypes = [
  'standalone',
  'standaloneInPack',
  'sticker',
  'stickerInPack',
  'unknown',
] as const;
export type BlueprintType = (typeof blueprintTypes)[number];
export const packTypes = ['standalone', 'sticker', 'unknown'] as const;
export type PackType = (typeof packTypes)[number];
export const rarityLevels = ['common', 'uncommon', 'rare', 'ultraRare', 'legendary', 'unknown'] as const;
export type RarityLevel = (typeof rarityLevels)[number];

/** Storefront reports (SPEC §3). */
export const reportReasons = ['offensive', 'illegal', 'misleading', 'other'] as const;
export type ReportReason = (typeof reportReasons)[number];
export const reportStatuses = ['created', 'resolved', 'cancelled'] as const;

/** Payout request states (SPEC §4 Payout state); the owner may cancel one in state created. */
export const payoutStates = [
  'created',
  'approved',
  'denied',
  'pending',
  'payed',
  'cancelled',
  'failed',
] as const;
export type PayoutState = (typeof payoutStates)[number];
/** States whose amount is spoken for: subtracted from the available funds (SPEC §5). */
export const payoutCommittedStates: PayoutState[] = ['created', 'pending', 'approved', 'payed'];
/** Open requests: only one may exist per storefront (SPEC §4 "Only one payout request may be pending"). */
export const payoutOpenStates: PayoutState[] = ['created', 'pending'];
