/**
 * The error codes the product answers. Only the screens (and the server) use the whole list, so it
 * loads with them; what every page needs from its first load on (the body of an error answer, the
 * error an API call throws and the texts of the errors the API client makes itself) is in
 * domain/apiError.ts, re-exported here. The texts that show an error are in domain/errors.ts.
 */
import { ClientErrorCode } from './apiError';

export { ApiError, type ApiErrorBody, ClientErrorCode, clientErrorText, clientErrorTexts } from './apiError';

export const ErrorCode = {
  NETWORK_FAILURE: ClientErrorCode.NETWORK_FAILURE,
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'not_found',
  /** The path exists, the method does not (405, with Allow). */
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  RATE_LIMITED: 'RATE_LIMITED',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  INVALID_VALUE: 'INVALID_VALUE',
  EMAIL_MISSING: 'EMAIL_MISSING',
  PASSWORD_MISSING: 'PASSWORD_MISSING',
  PASSWORD_MISMATCH: 'PASSWORD_MISMATCH',
  PASSWORD_SAME: 'PASSWORD_SAME',
  USERNAME_MISSING: 'USERNAME_MISSING',
  FIRSTNAME_MISSING: 'FIRSTNAME_MISSING',
  LASTNAME_MISSING: 'LASTNAME_MISSING',
  INVALID_USERNAME: 'INVALID_USERNAME',
  EMAIL_EXISTS: 'EMAIL_EXISTS',
  USERNAME_EXISTS: 'USERNAME_EXISTS',
  WALLET_EXISTS: 'WALLET_EXISTS',
  RESET_TOKEN_INVALID: 'RESET_TOKEN_INVALID',
  EMAIL_CHANGE_INVALID: 'EMAIL_CHANGE_INVALID',
  /** The link that turns sale emails off is not one of ours. */
  UNSUBSCRIBE_LINK_INVALID: 'UNSUBSCRIBE_LINK_INVALID',
  /** The account saved as many items as it may (FAVORITES_MAX). */
  FAVORITES_FULL: 'FAVORITES_FULL',
  BLOCTO_AUTHENTICATION: 'BLOCTO_AUTHENTICATION',
  BLOCTO_EMAIL: 'BLOCTO_EMAIL',
  TRANSACTION: 'TRANSACTION',
  TRANSACTION_PENDING: 'TRANSACTION_PENDING',
  /**
   * The wallet sent the transaction but it was not sealed within the wait: trying again waits for
   * the same transaction (the browser's answer; the server never sends it).
   */
  SEAL_TIMEOUT: 'SEAL_TIMEOUT',
  KYC_REQUIRED: 'KYC_REQUIRED',
  /** Identity verification is for people who own a collectible (there is nothing to sell before). */
  KYC_NO_NFTS: 'KYC_NO_NFTS',
  /** A new verification session cannot be started: the current one is approved, declined or in review. */
  KYC_CLOSED: 'KYC_CLOSED',
  /** Back office: only a declined verification, or one in review, can be reopened. */
  KYC_NOT_CLOSED: 'KYC_NOT_CLOSED',
  /** Back office: only an email that failed can be sent again. */
  EMAIL_NOT_FAILED: 'EMAIL_NOT_FAILED',
  /** The buyer (account or client address) already holds an unpaid unit of this item. */
  ITEM_HELD: 'ITEM_HELD',
  /** The account holds the most unpaid units it may (3) in all. */
  HOLD_LIMIT: 'HOLD_LIMIT',
  /** The buyer's hold of this item expired unpaid under a minute ago (429, Retry-After). */
  HOLD_COOLDOWN: 'HOLD_COOLDOWN',
  /** The provider's payment did not match the order (amount, currency): held for review, nothing minted. */
  PAYMENT_MISMATCH: 'PAYMENT_MISMATCH',
  /** The identity provider refused to open a session (the create-KYC error). */
  CREATE_KYC: 'CREATE_KYC',
  /** The identity provider could not be reached. */
  VERIFF_UNREACHABLE: 'VERIFF_UNREACHABLE',
  WALLET_CANCELED: 'WALLET_CANCELED',
  WALLET_ACCOUNT_DATA: 'WALLET_ACCOUNT_DATA',
  WALLET_MISMATCH: 'WALLET_MISMATCH',
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  REMOVE_LISTING: 'REMOVE_LISTING',
  /** The offer's expiry passed: the chain refused to accept it. */
  OFFER_EXPIRED: 'OFFER_EXPIRED',
  /** The buyer's FUSD balance no longer covers the offer: the chain refused to accept it. */
  OFFER_UNFUNDED: 'OFFER_UNFUNDED',
  TRANSFER_SELF: 'TRANSFER_SELF',
  PAYOUT_PENDING: 'PAYOUT_PENDING',
  PAYOUT_MINIMUM: 'PAYOUT_MINIMUM',
  PAYOUT_NOT_CANCELLABLE: 'PAYOUT_NOT_CANCELLABLE',
  /** The payout request cannot move to that state from the one it is in. */
  PAYOUT_STATE: 'PAYOUT_STATE',
  /** The storefront report was already resolved or cancelled. */
  REPORT_CLOSED: 'REPORT_CLOSED',
  /** An admin suspended the storefront: its owner cannot enable it. */
  STOREFRONT_SUSPENDED: 'STOREFRONT_SUSPENDED',
  ALREADY_REPORTED: 'ALREADY_REPORTED',
  SOLD_OUT: 'SOLD_OUT',
  PRICE_CHANGED: 'PRICE_CHANGED',
  NOT_PURCHASABLE: 'NOT_PURCHASABLE',
  WALLET_REQUIRED: 'WALLET_REQUIRED',
  CHARGE_PENDING: 'CHARGE_PENDING',
  CARD_DECLINED: 'CARD_DECLINED',
  CARD_INSUFFICIENT_FUNDS: 'CARD_INSUFFICIENT_FUNDS',
  CARD_EXPIRED: 'CARD_EXPIRED',
  CARD_TYPE: 'CARD_TYPE',
  CARD_CVV: 'CARD_CVV',
  CARD_DUPLICATE: 'CARD_DUPLICATE',
  CARD_TOKEN: 'CARD_TOKEN',
  INVALID_ADDRESS: 'INVALID_ADDRESS',
  PHONE_COUNTRY: 'PHONE_COUNTRY',
  PHONE_SHORT: 'PHONE_SHORT',
  PAYMENT_PROVIDER: 'PAYMENT_PROVIDER',
  CHARGE_NOT_CANCELLABLE: 'CHARGE_NOT_CANCELLABLE',
  /** Apple Pay / Google Pay: the buyer closed the payment sheet (client side). */
  APPLE_PAY_CANCELED: 'APPLE_PAY_CANCELED',
  /** The wallet's billing contact lacks the address line, city, postal code or country. */
  APPLE_PAY_ADDRESS: 'APPLE_PAY_ADDRESS',
  /** The card provider refused the wallet's token (malformed, expired or used). */
  CHECKOUT_COM_TOKEN: 'CHECKOUT_COM_TOKEN',
  /** "Processing Error": Apple's gateway refused the merchant validation. */
  PROCESSING_ERROR: 'PROCESSING_ERROR',
  CREATE_COINBASE_CHARGE: 'CREATE_COINBASE_CHARGE',
  CRYPTO_PROVIDER: 'CRYPTO_PROVIDER',
  /** The buyer may cancel an on-ramp purchase only while nothing was paid. */
  WERT_CANCEL_FAIL: 'wert_cancel_fail',
  ONRAMP_PROVIDER: 'ONRAMP_PROVIDER',
  ONRAMP_FAILED: 'ONRAMP_FAILED',
  ONRAMP_FAILOVER: 'ONRAMP_FAILOVER',
  CLAIM_BLUEPRINT: 'CLAIM_BLUEPRINT',
  PURCHASE_FAILED: 'PURCHASE_FAILED',
  /** The utility token (NFM) rail: see domain/schemas/token.ts. */
  ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS: 'ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS',
  ERROR_TOKEN_CHARGE_ETH_ADDRESS: 'ERROR_TOKEN_CHARGE_ETH_ADDRESS',
  ERROR_TOKEN_CHARGE_COMPLETE: 'ERROR_TOKEN_CHARGE_COMPLETE',
  LOW_FUNDS: 'low_funds',
  METAMASK_REQUIRED: 'METAMASK_REQUIRED',
  CHAIN_ID: 'chainId',
  REJECTED: 'rejected',
  ETH_INSUFFICIENT_FUNDS: 'insufficient_funds',
  /** The server could not reach the token's network. */
  TOKEN_NETWORK: 'TOKEN_NETWORK',
  /** A part of the service is off or not reachable (503): cards, crypto, the chain, identity checks. */
  UNAVAILABLE: 'unavailable',
  /** A required choice was not made (e.g. a report's reason). */
  MISSING: 'missing',
  /** Storefronts: the fields' own rules and the uniqueness of owner, name and address. */
  INVALID_VANITY_URL: 'INVALID_VANITY_URL',
  STOREFRONT_EXISTS: 'STOREFRONT_EXISTS',
  STOREFRONT_NAME_EXISTS: 'STOREFRONT_NAME_EXISTS',
  VANITY_URL_EXISTS: 'VANITY_URL_EXISTS',
  /** Blueprints: the caller has no storefront, the item can no longer change, or not in this state. */
  NO_STOREFRONT: 'NO_STOREFRONT',
  BLUEPRINT_LOCKED: 'BLUEPRINT_LOCKED',
  BLUEPRINT_STATE: 'BLUEPRINT_STATE',
  /** A blueprint's preview image or asset is missing or not one of the creator's own uploads. */
  PREVIEW_REQUIRED: 'preview_required',
  ASSET_REQUIRED: 'asset_required',
  /** Uploads: the image rules of each kind (format, size, dimensions, aspect) and name clashes. */
  FILE_TYPE: 'FILE_TYPE',
  FILE_SIZE_BIG: 'FILE_SIZE_BIG',
  FILE_EXISTS: 'FILE_EXISTS',
  IMAGE_MIN_WIDTH: 'IMAGE_MIN_WIDTH',
  IMAGE_MIN_HEIGHT: 'IMAGE_MIN_HEIGHT',
  IMAGE_MAX_WIDTH: 'IMAGE_MAX_WIDTH',
  IMAGE_MAX_HEIGHT: 'IMAGE_MAX_HEIGHT',
  IMAGE_ASPECT: 'IMAGE_ASPECT',
  /** Failure codes of an order: not paid in time, canceled, or paid but its edition could not be minted. */
  EXPIRED: 'EXPIRED',
  CANCELED: 'CANCELED',
  MINT_SAVE_FAILED: 'MINT_SAVE_FAILED',
  UNKNOWN: ClientErrorCode.UNKNOWN,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
