/** The product's enumerations (roles, statuses, categories, states, kinds), as the API spells them. */
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

/** New accounts register with role creator. */
export const REGISTRATION_ROLE: Role = 'creator';

/** Storefront categories and themes (light: dark text on white, the default; dark: white on near-black). */
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

/** Blueprint and pack states, statuses (on the way to the chain), types and rarity. */
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

/** Storefront reports: a reason, and a status from created to resolved or cancelled. */
export const reportReasons = ['offensive', 'illegal', 'misleading', 'other'] as const;
export type ReportReason = (typeof reportReasons)[number];
export const reportStatuses = ['created', 'resolved', 'cancelled'] as const;

/**
 * Where an outgoing email is: waiting for an attempt, handed to the relay (an attempt under way, or
 * one a crash interrupted), accepted by the relay, or given up (a permanent refusal, or 24 hours).
 */
export const emailStatuses = ['queued', 'sending', 'sent', 'failed'] as const;

/** Payout request states; the owner may cancel one in state created (it becomes cancelled). */
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
/** States whose amount is spoken for: subtracted from the available funds. */
export const payoutCommittedStates: PayoutState[] = ['created', 'pending', 'approved', 'payed'];
/** Open requests: only one may exist per storefront at a time. */
export const payoutOpenStates: PayoutState[] = ['created', 'pending'];
