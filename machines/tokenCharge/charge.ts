import type { ApiErrorBody } from '#domain/errors';
import type { TokenCheckpoint, WalletAccount } from '#domain/ports/checkout';
import type { CheckoutItemKind } from '#domain/schemas/checkout';
import type { TokenChargeJson, TokenPriceConversionJson } from '#domain/schemas/token';
import { type RailOutcome, railPaid } from '../railOutcome';

export type {
  CreateTokenChargeRequest,
  TokenCheckpoint,
  TransferCheck,
  WalletAccount,
} from '#domain/ports/checkout';

/** The token-charge machine's input, context, events and output, and the rules it reads of a charge. */
export interface TokenChargeInput {
  item: { kind: CheckoutItemKind; id: string; title: string };
  /** Cents. */
  price: number;
  /** A browser wallet (EIP-1193) is there. */
  walletAvailable: boolean;
  /** The network the token lives on. */
  chainId: number;
  /** The tab's checkpoint of a charge under way (after a reload). */
  restore?: TokenCheckpoint | null;
}

/** The token rail ends paid (the charge's order), or back. */
export type TokenChargeOutput = RailOutcome;

/** Paid: the charge's order; a charge that names none is looked for as the item bought since it was made. */
export const tokenPaid = (charge: TokenChargeJson, item: TokenChargeInput['item']): RailOutcome =>
  railPaid(charge.order ?? { item, createdAt: charge.createdAt }, 'token');

export interface TokenChargeContext extends TokenChargeInput {
  estimate: TokenPriceConversionJson | null;
  acknowledged: boolean;
  account: WalletAccount | null;
  key: string | null;
  charge: TokenChargeJson | null;
  /** Another charge of the address, waiting, that stops a new one. */
  blocker: TokenChargeJson | null;
  transactionHash: string | null;
  /**
   * The server refused a cancel because it has seen the charge's transfer: the transfer exists
   * even while a read does not show it yet, so it is waited for, never sent again nor canceled.
   */
  transferSeen: boolean;
  /** Set while the chain is checked right before a send: with no transfer found, it is sent. */
  sendWhenNone: boolean;
  polls: number;
  error: ApiErrorBody | null;
  result: TokenChargeOutput | null;
}
export type TokenChargeEvent =
  | { type: 'token.acknowledge'; value: boolean }
  | { type: 'token.submit' }
  | { type: 'token.switch' }
  | { type: 'token.retry' }
  | { type: 'token.resume' }
  | { type: 'token.cancel' }
  | { type: 'token.back' };

/** Reports of the transfer before the buyer is offered Check again. */
export const TOKEN_MAX_POLLS = 50;

/** The id of the charge that stops a new one (ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS answers it). */
export const blockingChargeId = (err: unknown): string | null => {
  // A thrown API error carries its body; the context keeps the body itself.
  const body = (err as { body?: unknown })?.body ?? err;
  const id = (body as { chargeId?: unknown } | null)?.chargeId;
  return typeof id === 'string' ? id : null;
};
/** A charge still waiting for the buyer: created (to sign) or signed (to pay). */
export const isWaiting = (charge: TokenChargeJson | null) =>
  charge !== null && ['created', 'signed'].includes(charge.status);
export const sameItem = (item: TokenChargeInput['item'], ref: { kind: CheckoutItemKind; id: string }) =>
  item.kind === ref.kind && item.id === ref.id;
/** The item a charge pays for. */
export const chargeItem = (charge: TokenChargeJson) =>
  charge.blueprintPackId
    ? { kind: 'pack' as const, id: charge.blueprintPackId }
    : { kind: 'blueprint' as const, id: charge.blueprintId ?? '' };
/** Paid: the charge completed, or its order is paid and minting or minted. */
export const isCompleted = (charge: TokenChargeJson) =>
  ['completed', 'MINTING', 'MINTED'].includes(charge.status) ||
  ['authorized', 'captured', 'minting', 'minted'].includes(charge.order?.status ?? '');

/** "250.00 NFM": an amount in the token's smallest unit (18 decimals), with 2 decimals. */
export function formatNfm(value: string): string {
  const units = BigInt(value);
  const hundredths = (units + 5n * 10n ** 15n) / 10n ** 16n;
  const whole = hundredths / 100n;
  const cents = (hundredths % 100n).toString().padStart(2, '0');
  return `${new Intl.NumberFormat('en-US').format(whole)}.${cents} NFM`;
}
