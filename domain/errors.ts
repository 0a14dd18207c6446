/**
 * How an error is shown: errors.{code} or errors.{code}.{field}, or the server message, else
 * errors.default. The codes themselves and ApiError are in domain/errorCodes.ts (re-exported here).
 */
import { type ApiErrorBody, clientErrorTexts, ErrorCode } from './errorCodes';

export { ApiError, type ApiErrorBody, ErrorCode } from './errorCodes';

export const PASSWORD_MIN = 8;

/** English texts behind the keys errors.{code} and errors.{code}.{field}. */
export const errorTexts: Record<string, string> = {
  ...clientErrorTexts,
  'errors.UNAUTHORIZED': 'Invalid email or password',
  'errors.FORBIDDEN': 'Restricted area',
  'errors.RATE_LIMITED': 'Too many attempts. Please wait a few minutes and try again.',
  'errors.UNSUPPORTED_MEDIA_TYPE': 'Requests must be sent as JSON.',
  'errors.EMAIL_CHANGE_INVALID':
    'This confirmation link is invalid or has expired. Please change your email again.',
  'errors.UNSUBSCRIBE_LINK_INVALID':
    'This link cannot turn off sale emails. Turn them off in your dashboard’s notifications instead.',
  'errors.PASSWORD_MISSING.oldPassword': 'Enter your current password to change your email or password.',
  'errors.FAVORITES_FULL': 'You saved 500 items already. Remove one from your favorites to save another.',
  'errors.not_found': "We couldn't find what you're looking for",
  'errors.METHOD_NOT_ALLOWED': 'This request is not supported here.',
  'errors.EMAIL_MISSING': 'Please enter an email address',
  'errors.PASSWORD_MISSING': 'Please enter a password',
  'errors.PASSWORD_MISMATCH': "Passwords don't match.",
  'errors.PASSWORD_SAME': 'The new password must be different from the old one.',
  'errors.USERNAME_MISSING': 'Please enter a username',
  'errors.FIRSTNAME_MISSING': 'Please enter a first name',
  'errors.LASTNAME_MISSING': 'Please enter a last name',
  'errors.INVALID_USERNAME': 'Usernames are 2 to 50 letters, numbers, dashes or underscores.',
  'errors.INVALID_VALUE': 'is invalid',
  'errors.INVALID_VALUE.email': 'Please enter a valid email address',
  'errors.INVALID_VALUE.password': 'Password must be at least {n} Characters',
  'errors.INVALID_VALUE.newPassword': 'Password must be at least {n} Characters',
  'errors.INVALID_VALUE.username': 'Username needs at least 3 letters, hyphens or underscores',
  'errors.INVALID_VALUE.firstName': 'First name needs at least 3 letters, hyphens or underscores',
  'errors.INVALID_VALUE.lastName': 'Please enter a valid last name.',
  'errors.INVALID_VALUE.role': 'This role cannot be chosen at registration',
  'errors.INVALID_VALUE.walletAddress': 'Wallet address is invalid',
  'errors.INVALID_VALUE.oldPassword': 'The current password is not correct',
  'errors.EMAIL_EXISTS': 'An account with this email already exists.',
  'errors.USERNAME_EXISTS': 'This username is taken.',
  'errors.WALLET_EXISTS': 'This wallet is linked to another account.',
  'errors.RESET_TOKEN_INVALID': 'This reset link is invalid or has expired. Please request a new one.',
  'errors.BLOCTO_AUTHENTICATION': 'Wallet authentication failed. Please connect your wallet again.',
  'errors.WALLET_CANCELED': 'Connecting the wallet failed or was canceled.',
  'errors.WALLET_ACCOUNT_DATA':
    'We failed to receive your account data from the wallet. Please connect again.',
  'errors.KYC_REQUIRED': 'Selling on the marketplace requires identity verification (KYC). Buying does not.',
  'errors.PAYOUT_STATE': 'This payout request cannot be moved to that state from the one it is in now.',
  'errors.REPORT_CLOSED': 'This report was already resolved or dismissed.',
  'errors.STOREFRONT_SUSPENDED':
    'This storefront was suspended by our team and cannot be enabled. Write to support to talk about it.',
  'errors.KYC_NO_NFTS':
    'Identity verification is for selling, and you have nothing to sell yet. Collect an NFT first, then verify your identity to list it.',
  'errors.KYC_CLOSED': 'Your identity verification is already decided or under review.',
  'errors.ITEM_HELD':
    'This item is already waiting for payment by you or someone on your network. Complete or cancel that payment, or try again in a few minutes.',
  'errors.HOLD_LIMIT':
    'You have 3 purchases waiting for payment. Complete or cancel one of them before starting another.',
  'errors.HOLD_COOLDOWN': 'Your hold on this item ran out before it was paid. You can try again in a minute.',
  'errors.PAYMENT_MISMATCH':
    'Your payment did not match the order, so nothing was minted. Our team is reviewing it and will give it back.',
  'errors.KYC_NOT_CLOSED': 'Only a declined verification, or one in review, can be reopened.',
  'errors.EMAIL_NOT_FAILED': 'Only an email that failed can be sent again.',
  'errors.CREATE_KYC': 'We could not start your identity verification. Please check your name and try again.',
  'errors.VERIFF_UNREACHABLE':
    'Unable to reach Veriff, our identity verification partner. Please try again later or contact support.',
  'errors.TRANSACTION': 'The transaction did not go through. Nothing was changed; please try again.',
  'errors.SEAL_TIMEOUT':
    'Your transaction was sent but the blockchain has not confirmed it yet. Try again to keep waiting for it; it is not sent twice.',
  'errors.TRANSACTION_PENDING': 'The transaction is not confirmed on chain yet. Please wait a moment.',
  'errors.WALLET_MISMATCH':
    'Your account is linked to the wallet {address}. Connect that wallet to continue.',
  'errors.INSUFFICIENT_FUNDS': 'Insufficient funds',
  'errors.REMOVE_LISTING': 'Unable to remove NFT from the marketplace. Please try again later.',
  'errors.OFFER_EXPIRED': 'This offer has expired.',
  'errors.OFFER_UNFUNDED': 'This offer is no longer funded.',
  'errors.INVALID_VALUE.price': 'Enter a price of 0 (free) or between $0.01 and $10,000.',
  'errors.INVALID_VANITY_URL': 'Use 2 to 50 letters, digits, underscores or hyphens.',
  'errors.STOREFRONT_EXISTS': 'You already have a storefront.',
  'errors.STOREFRONT_NAME_EXISTS': 'A storefront with this name already exists.',
  'errors.VANITY_URL_EXISTS': 'This address is taken. Try another one.',
  'errors.INVALID_VALUE.name': 'Please enter a valid name.',
  'errors.INVALID_VALUE.contactEmail': 'Please enter a valid email address',
  'errors.FILE_TYPE': 'This file type is not supported. Use a {formats} image.',
  'errors.FILE_SIZE_BIG': 'This file is {size}: the limit is {maxSize}.',
  'errors.FILE_EXISTS': 'A file with this name was already uploaded. Please choose the file again.',
  'errors.IMAGE_MIN_WIDTH':
    'This image is {width} × {height} pixels: it must be at least {minWidth} × {minHeight}.',
  'errors.IMAGE_ASPECT':
    'This image is {width} × {height} pixels: it must be square (as wide as it is high).',
  'errors.IMAGE_MIN_HEIGHT':
    'This image is {width} × {height} pixels: it must be at least {minWidth} × {minHeight}.',
  'errors.IMAGE_MAX_WIDTH':
    'This image is {width} × {height} pixels: it must be at most {maxWidth} × {maxHeight}.',
  'errors.IMAGE_MAX_HEIGHT':
    'This image is {width} × {height} pixels: it must be at most {maxWidth} × {maxHeight}.',
  'errors.missing.reason': 'Please choose a reason.',
  'errors.INVALID_VALUE.description': 'Please enter a valid description.',
  'errors.INVALID_VALUE.min': 'Enter a minimum price in dollars.',
  'errors.INVALID_VALUE.max': 'Enter a maximum price in dollars, not below the minimum.',
  'errors.INVALID_VALUE.terms': 'Please agree to the purchase agreement and the terms to continue.',
  'errors.INVALID_VALUE.recipient': 'Enter a Flow address: 0x followed by 16 hexadecimal characters.',
  'errors.TRANSFER_SELF': 'These collectibles are already in this wallet. Enter another address.',
  'errors.BLOCTO_EMAIL':
    'Your wallet did not share an email address and wallet address. Please connect again.',
  'errors.preview_required': 'Please add a preview image (PNG, JPG or GIF, at least 200 × 200, up to 1 MB).',
  'errors.asset_required': 'Please add the asset (PNG, JPG or GIF, at least 200 × 200, up to 2 MB).',
  'errors.INVALID_VALUE.title': 'Please enter a valid title.',
  'errors.INVALID_VALUE.quantity': 'Enter a whole number of editions from 1 to 10,000.',
  'errors.INVALID_VALUE.royaltyPercent': 'Enter a royalty from 0 to 50 percent.',
  'errors.BLUEPRINT_LOCKED': 'This item is on chain (or being published) and can no longer be edited.',
  'errors.BLUEPRINT_STATE': 'This is not possible in the item’s current state.',
  'errors.NO_STOREFRONT': 'Create your storefront first.',
  'errors.PUBLISH_FAILED': 'Publishing did not go through. The item is a draft again; please try again.',
  'errors.null': 'cannot be empty',
  'errors.number': 'must be a number',
  'errors.integer': 'must be an integer',
  'errors.range': 'must be between {min} and {max}',
  'errors.matches': 'is invalid',
  'errors.required': 'Please fill in all the required information',
  /** Dashboard: leaving a panel with unsaved changes (Dashboard → Account). */
  'dashboard.unsaved': 'You have unsaved changes. Leave without saving?',
  'errors.PAYOUT_PENDING': 'Payout request already pending',
  'errors.PAYOUT_MINIMUM': 'The minimum payout is $10.',
  'errors.PAYOUT_MINIMUM.amount': 'The minimum payout is $10.',
  'errors.INSUFFICIENT_FUNDS.amount': 'This is more than your available funds.',
  'errors.INVALID_VALUE.amount': 'Enter an amount in dollars, e.g. 25.00.',
  'errors.PAYOUT_NOT_CANCELLABLE':
    'This payout request is already being processed and can no longer be cancelled.',
  'errors.ALREADY_REPORTED': 'You have already reported this storefront.',
  'errors.SOLD_OUT': 'Sold out! Every edition of this item has been bought.',
  'errors.PRICE_CHANGED': 'The price of this item changed. Please check the new price and try again.',
  'errors.NOT_PURCHASABLE': 'This item is not on sale right now.',
  'errors.WALLET_REQUIRED': 'Purchases need a wallet. Connect your wallet first.',
  'errors.CHARGE_PENDING': 'You have a payment waiting to be completed. Resume or cancel it first.',
  'errors.CARD_DECLINED': 'Purchase Failed. Your card was not charged.',
  'errors.CARD_INSUFFICIENT_FUNDS':
    'Insufficient funds. Your card was not charged; try another card or pay with crypto.',
  'errors.CARD_EXPIRED': 'This card has expired.',
  'errors.CARD_TYPE': 'This card type is not supported. We accept Visa, Mastercard and Discover.',
  'errors.CARD_CVV': "Please enter the card's security code (CVV).",
  'errors.CARD_DUPLICATE': 'A card with the same last four digits is already saved.',
  'errors.CARD_TOKEN': 'The card details expired. Please enter your card again.',
  'errors.INVALID_ADDRESS': 'Invalid address. Please double check the information.',
  'errors.PHONE_COUNTRY': 'The phone number must match the country.',
  'errors.PHONE_SHORT': 'The phone number needs at least 6 digits.',
  'errors.PAYMENT_PROVIDER':
    'We could not contact the card processor. You were not charged; please try again.',
  'errors.CHARGE_NOT_CANCELLABLE': 'This payment can no longer be canceled.',
  'errors.APPLE_PAY_CANCELED': 'The payment was canceled. You were not charged.',
  'errors.APPLE_PAY_ADDRESS':
    'Your wallet did not share a complete billing address (street, city, state, postal code and country). Update it in your wallet or pay by card.',
  'errors.APPLE_PAY_ADDRESS.country':
    'Your wallet’s billing address must be in a country we accept cards from. Update it in your wallet or pay by card.',
  'errors.APPLE_PAY_ADDRESS.phoneNumber':
    'Your wallet did not share a phone number with its country calling code. Add one in your wallet or pay by card.',
  'errors.CHECKOUT_COM_TOKEN':
    'We could not process the payment from your wallet. You were not charged; please try again or pay by card.',
  'errors.PROCESSING_ERROR': 'Processing Error. You were not charged; please try again.',
  'errors.CREATE_COINBASE_CHARGE':
    'We could not start the crypto payment. You were not charged; please try again.',
  'errors.CRYPTO_PROVIDER':
    'We could not contact the crypto processor. You were not charged; please try again.',
  'errors.ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS':
    'You already have a payment in NFM waiting. Finish or cancel it first.',
  'errors.ERROR_TOKEN_CHARGE_ETH_ADDRESS':
    'This payment belongs to the wallet {address}. Switch to that account in your wallet.',
  'errors.ERROR_TOKEN_CHARGE_COMPLETE': 'This payment is already complete.',
  'errors.TRANSACTION.signature': 'Sign the payment in your wallet before its NFM transfer is taken.',
  'errors.low_funds': 'The amount of NFM transferred is too low.',
  'errors.TOKEN_NETWORK': 'The NFM network could not be reached. Please try again in a moment.',
  'errors.TOKEN_NETWORK.rate': 'The NFM price could not be read. Please try again in a moment.',
  'errors.METAMASK_REQUIRED': 'MetaMask required. Install a browser wallet to pay with NFM.',
  'errors.chainId': 'Your wallet is on another network. Switch to the test network to pay.',
  'errors.rejected': 'You rejected the request in your wallet. Nothing was paid.',
  'errors.insufficient_funds': 'Your wallet does not hold enough to pay this (NFM, or ETH for the fee).',
  'errors.wert_cancel_fail':
    'This purchase can no longer be canceled: your card payment has started. It will complete, or be refunded.',
  'errors.ONRAMP_FAILED': 'The card payment did not go through. You were not charged; please try again.',
  'errors.ONRAMP_FAILOVER':
    'The payment could not be delivered to us; the provider sent the funds to your wallet instead.',
  'errors.ONRAMP_PROVIDER':
    'We could not contact the card-to-crypto payment provider. Please try again in a moment.',
  'errors.CLAIM_BLUEPRINT': 'We could not claim this item for you.',
  'errors.PURCHASE_FAILED':
    "Something went wrong. We're looking into it! Check your collection, and contact support after an hour if you were charged.",
  'errors.INVALID_VALUE.country': 'Please choose a country.',
  'errors.INVALID_VALUE.state': 'Please choose a state or province.',
  'errors.INVALID_VALUE.phoneNumber': 'Please enter a phone number.',
  'errors.INVALID_VALUE.addressLine1': 'Please enter an address.',
  'errors.INVALID_VALUE.city': 'Please enter a city.',
  'errors.INVALID_VALUE.zipCode': 'Please enter a postal code.',
  'errors.INVALID_VALUE.cardNumber': 'Please double check the card number.',
  'errors.missing': 'Please make a choice.',
};

/**
 * Codes the server words itself in every answer (which service is off; why an order ended, in the
 * rail's own words): they have no text here, so the server's message is shown.
 */
export const serverWordedCodes: ReadonlySet<string> = new Set([
  ErrorCode.UNAVAILABLE,
  ErrorCode.EXPIRED,
  ErrorCode.CANCELED,
  ErrorCode.MINT_SAVE_FAILED,
]);

/**
 * The text with its {placeholders} filled from params; null when a placeholder has no value (the
 * text is then not used: the next one is, or the server's own message).
 */
function fill(text: string, params?: Record<string, string | number>): string | null {
  let missing = false;
  const filled = text.replace(/\{(\w+)\}/g, (m, k: string) => {
    if (params && k in params) return String(params[k]);
    missing = true;
    return m;
  });
  return missing ? null : filled;
}

/** What a length rule's text calls each field ("Description must be 2–2,000 characters."). */
export const fieldLabels: Record<string, string> = {
  name: 'Storefront name',
  description: 'Description',
  title: 'Title',
  email: 'Email',
  contactEmail: 'Contact email',
  password: 'Password',
  newPassword: 'Password',
  oldPassword: 'Password',
  firstName: 'First name',
  lastName: 'Last name',
  addressLine1: 'Address',
  addressLine2: 'Address line 2',
  city: 'City',
  state: 'State',
  zipCode: 'Postal code',
  phoneNumber: 'Phone number',
  caption: 'Caption',
  search: 'Search',
  searchText: 'Search',
};

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The text of a length rule's error, naming its limits: "{Field} must be {min}–{max} characters",
 * "at most {max}" or "at least {min}" (params minLength / maxLength, set by domain/validation.ts
 * lengthKey). Null for an error of another rule.
 */
function lengthText(field: string | undefined, params: Record<string, string | number> | undefined) {
  const min = params?.minLength === undefined ? undefined : Number(params.minLength);
  const max = params?.maxLength === undefined ? undefined : Number(params.maxLength);
  if (min === undefined && max === undefined) return null;
  const label = (field && fieldLabels[field]) || 'This field';
  const limit =
    min !== undefined && max !== undefined
      ? `${count(min)}–${count(max)} characters`
      : max !== undefined
        ? `at most ${count(max)} characters`
        : `at least ${count(min!)} characters`;
  return `${label} must be ${limit}.`;
}

/**
 * An error's text: a length rule's own text when the error names its limits, else
 * errors.{code}.{field}, else errors.{code} (a text whose {placeholders} the error's params cannot
 * fill is passed over), else the server's own message, else errors.default.
 */
export function errorMessage(err: Partial<ApiErrorBody> | null | undefined): string {
  if (!err) return errorTexts['errors.default']!;
  const params =
    err.params ??
    (err.code === ErrorCode.INVALID_VALUE && (err.field === 'password' || err.field === 'newPassword')
      ? { n: PASSWORD_MIN }
      : undefined);
  const length = lengthText(err.field, params);
  if (length) return length;
  if (err.code && err.field) {
    const t = errorTexts[`errors.${err.code}.${err.field}`];
    const text = t && fill(t, params);
    if (text) return text;
  }
  // A refused claim says why (already claimed, sold out, not on sale): the server words it.
  if (err.code === ErrorCode.CLAIM_BLUEPRINT && err.message) return err.message;
  if (err.code) {
    const t = errorTexts[`errors.${err.code}`];
    const text = t && fill(t, params);
    if (text) return text;
  }
  return err.message || errorTexts['errors.default']!;
}

/** Turns whatever an actor threw into an error body (server bodies pass through). */
/**
 * The failures a retry of the same request may get past: no answer (or one the client cannot read),
 * the server failing or starting, a provider or network it asks out of reach, a limit that passes,
 * a transaction not confirmed yet. Any other error is the server's decision on the request (not
 * free, sold out, claimed already, …), which a retry only repeats, so it offers no retry.
 */
const RETRYABLE_CODES: readonly string[] = [
  ErrorCode.NETWORK_FAILURE,
  ErrorCode.UNKNOWN,
  ErrorCode.UNAVAILABLE,
  ErrorCode.RATE_LIMITED,
  ErrorCode.HOLD_COOLDOWN,
  ErrorCode.PAYMENT_PROVIDER,
  ErrorCode.CRYPTO_PROVIDER,
  ErrorCode.ONRAMP_PROVIDER,
  ErrorCode.TOKEN_NETWORK,
  ErrorCode.VERIFF_UNREACHABLE,
  ErrorCode.TRANSACTION_PENDING,
  ErrorCode.SEAL_TIMEOUT,
];

/** Whether retrying what failed with this error may succeed (RETRYABLE_CODES). */
export const retryable = (error: Pick<ApiErrorBody, 'code'> | null): boolean =>
  error !== null && RETRYABLE_CODES.includes(error.code);

export function toErrorBody(error: unknown): ApiErrorBody {
  const body = (error as { body?: ApiErrorBody })?.body;
  if (body && typeof body.code === 'string') return body;
  const code = (error as { code?: string })?.code ?? ErrorCode.NETWORK_FAILURE;
  return { code, message: errorMessage({ code }) };
}
