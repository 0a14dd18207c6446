import * as v from 'valibot';
import {
  billingInfoStatuses,
  cardChargeStatuses,
  checkoutItemKinds,
  orderStatuses,
} from '../schemas/checkout';
import { coinbaseChargeStatuses } from '../schemas/crypto';
import { tokenChargeStatuses } from '../schemas/token';
import { wertChargeStatuses } from '../schemas/wert';
import { Count, DateTime, resultsOf } from './common';

/**
 * Orders and the charges of each payment rail as the product API answers them (money in cents). The
 * request schemas beside them are in domain/schemas/{checkout,crypto,fusd,wert,token,applepay}.ts.
 */

export const OrderEventJson = v.object({ type: v.string(), detail: v.nullable(v.string()), at: DateTime });
export type OrderEventJson = v.InferOutput<typeof OrderEventJson>;

/** GET orders/{id}: an order of the caller, with its editions and its timeline (oldest first). */
export const OrderJson = v.object({
  id: v.string(),
  method: v.picklist(['creditCard', 'freeBlueprintClaim', 'coinbase', 'fusd', 'wert', 'token']),
  item: v.object({ kind: v.picklist(checkoutItemKinds), id: v.string(), title: v.string() }),
  amount: Count,
  currency: v.string(),
  status: v.picklist(orderStatuses),
  walletAddress: v.string(),
  /**
   * The order's editions (serialNumber once captured, nftId once minted), each with its blueprint's
   * picture and storefront: what the purchase-complete page shows.
   */
  editions: v.array(
    v.object({
      blueprintId: v.string(),
      flowBlueprintId: Count,
      title: v.string(),
      serialNumber: v.nullable(Count),
      nftId: v.nullable(v.string()),
      previewImageUrl: v.nullable(v.string()),
      storefront: v.object({ id: v.string(), name: v.string() }),
    }),
  ),
  failure: v.nullable(v.object({ code: v.string(), message: v.string() })),
  events: v.array(OrderEventJson),
  createdAt: DateTime,
});
export type OrderJson = v.InferOutput<typeof OrderJson>;

/** A card charge as POST/GET/PATCH checkout-com-charges answer it. */
export const CardChargeJson = v.object({
  id: v.string(),
  orderId: v.string(),
  status: v.picklist(cardChargeStatuses),
  /** Set while the buyer must complete 3-D Secure at the provider. */
  redirectLink: v.nullable(v.string()),
  /** True once the payment is authorized or captured (the buyer is charged or will be). */
  success: v.boolean(),
  /** True while the charge waits for the buyer (3-D Secure) and can be resumed or canceled. */
  unresolved: v.boolean(),
  last4: v.nullable(v.string()),
  order: OrderJson,
});
export type CardChargeJson = v.InferOutput<typeof CardChargeJson>;
export const CardChargeList = resultsOf(CardChargeJson);

/** A saved card (its billing details; the card itself stays at the provider). */
export const BillingInfoJson = v.object({
  id: v.string(),
  lastFourDigits: v.string(),
  scheme: v.nullable(v.string()),
  expiryMonth: v.nullable(v.number()),
  expiryYear: v.nullable(v.number()),
  firstName: v.string(),
  lastName: v.nullable(v.string()),
  addressLine1: v.string(),
  addressLine2: v.nullable(v.string()),
  city: v.string(),
  state: v.string(),
  country: v.string(),
  zipCode: v.string(),
  phoneNumber: v.object({ countryCode: v.string(), number: v.string() }),
  billingAddress: v.object({
    addressLine1: v.string(),
    addressLine2: v.nullable(v.string()),
    zip: v.string(),
    city: v.string(),
    state: v.string(),
    country: v.string(),
  }),
  status: v.picklist(billingInfoStatuses),
  createdAt: DateTime,
});
export type BillingInfoJson = v.InferOutput<typeof BillingInfoJson>;
export const BillingInfoList = resultsOf(BillingInfoJson);

/** A free blueprint's claim, with its order. */
export const FreeClaimJson = v.object({
  id: v.string(),
  userId: v.string(),
  blueprintId: v.string(),
  orderId: v.string(),
  createdAt: DateTime,
  order: OrderJson,
});
export type FreeClaimJson = v.InferOutput<typeof FreeClaimJson>;
export const FreeClaimList = resultsOf(FreeClaimJson);

/** GET config/payments: what the browser needs to pay on each rail (never a secret). */
export const PaymentsConfigJson = v.object({
  /** The card provider's public key (pk_…) and the API base the browser tokenizes cards with. */
  card: v.nullable(v.object({ publicKey: v.string(), apiUrl: v.string() })),
  /** Whether crypto payments (hosted charges) run. */
  crypto: v.boolean(),
  /** Whether new editions can be paid with the FUSD balance (the server reads the chain). */
  balance: v.boolean(),
  /** Whether the card-to-crypto on-ramp (the provider's widget, POST wert-charges) runs. */
  onramp: v.boolean(),
  /**
   * The utility token (NFM, an ERC20) paid from a browser wallet: where to pay. Present only while
   * the NFM_PAYMENTS flag is on; absent, the rail exists nowhere. rpcUrl null: the wallet must know
   * the network; chainName names it when a wallet lacking it is asked to add it.
   */
  token: v.optional(
    v.object({
      chainId: v.number(),
      chainName: v.string(),
      rpcUrl: v.nullable(v.string()),
      tokenAddress: v.string(),
      paymentsAddress: v.string(),
    }),
  ),
  /**
   * Apple Pay on the web (ApplePaySession), paid through the card provider; null when it is off.
   * Merchant validation: POST checkout-com-charges/actions/applepay.
   */
  applePay: v.nullable(v.object({ merchantId: v.string(), displayName: v.string() })),
  /**
   * Google Pay (PaymentsClient), paid through the card provider; null when it is off. The request's
   * tokenizationSpecification is `{ type: 'PAYMENT_GATEWAY', parameters: { gateway, gatewayMerchantId } }`
   * (gateway: "checkoutltd"; gatewayMerchantId: the card provider's public key); merchantId is
   * Google's, required in PRODUCTION only (null in TEST when not set).
   */
  googlePay: v.nullable(
    v.object({
      gateway: v.string(),
      gatewayMerchantId: v.string(),
      merchantId: v.nullable(v.string()),
      merchantName: v.string(),
      environment: v.picklist(['TEST', 'PRODUCTION']),
    }),
  ),
  /**
   * Whether the browser plays both wallets with stand-ins that speak their real APIs (the card
   * provider is the embedded sandbox, which real wallets' tokens cannot reach).
   */
  walletStandIns: v.boolean(),
});
export type PaymentsConfigJson = v.InferOutput<typeof PaymentsConfigJson>;

/**
 * Apple's merchant session: opaque, single use, valid for 5 minutes. The server passes it on
 * unchanged; these are the fields Apple sends today.
 */
export const ApplePayMerchantSession = v.looseObject({
  epochTimestamp: v.number(),
  expiresAt: v.number(),
  merchantSessionIdentifier: v.string(),
  nonce: v.string(),
  merchantIdentifier: v.string(),
  domainName: v.string(),
  displayName: v.string(),
  signature: v.string(),
  operationalAnalyticsIdentifier: v.optional(v.string()),
  retries: v.optional(v.number()),
  pspId: v.optional(v.string()),
});
export type ApplePayMerchantSession = v.InferOutput<typeof ApplePayMerchantSession>;

/** A crypto charge as POST/GET/PATCH coinbase-charges answer it. */
export const CoinbaseChargeJson = v.object({
  id: v.string(),
  type: v.picklist(['directPurchase', 'topup']),
  status: v.picklist(coinbaseChargeStatuses),
  /** UNRESOLVED's reason: UNDERPAID, OVERPAID, DELAYED, MULTIPLE, MANUAL, OTHER. */
  context: v.nullable(v.string()),
  /** The provider's hosted page, while the buyer can still pay there. */
  hostedUrl: v.nullable(v.string()),
  code: v.nullable(v.string()),
  /** Cents asked, and received so far. */
  amount: Count,
  paid: Count,
  /** True while the buyer can still pay (resume) or cancel it. */
  unresolved: v.boolean(),
  /** True once paid (the edition is minted or the FUSD sent). */
  success: v.boolean(),
  walletAddress: v.string(),
  /** The FUSD transfer of a top-up or of a refund. */
  fusdTransactionId: v.nullable(v.string()),
  expiresAt: DateTime,
  createdAt: DateTime,
  /** A direct purchase's order and its timeline. */
  order: v.nullable(OrderJson),
});
export type CoinbaseChargeJson = v.InferOutput<typeof CoinbaseChargeJson>;
export const CoinbaseChargeList = resultsOf(CoinbaseChargeJson);

/** A payment's state: PAID and the mint statuses for the one that paid the order, else a refund. */
export const fusdPaymentStatuses = [
  'PAID',
  'MINTING',
  'MINTED',
  'MINT_SAVE_FAILED',
  'NFT_SYNC_FAILED',
  'REFUND_PENDING',
  'SEND_FUSD_SUCCEEDED',
  'SEND_FUSD_FAILED',
] as const;
export type FusdPaymentStatus = (typeof fusdPaymentStatuses)[number];

export const FusdPaymentJson = v.object({
  transactionId: v.string(),
  amount: Count,
  /** Whether this payment paid the order (else it is sent back). */
  accepted: v.boolean(),
  status: v.picklist(fusdPaymentStatuses),
  refundTransactionId: v.nullable(v.string()),
  createdAt: DateTime,
});
export type FusdPaymentJson = v.InferOutput<typeof FusdPaymentJson>;

/** An order paid with the balance, as POST/GET/PATCH fusd-orders answer it. */
export const FusdOrderJson = v.object({
  /** The order's id: the `orderId` argument of pay_order.cdc. */
  id: v.string(),
  amount: Count,
  /** The exact FUSD to pay (UFix64 text), the `amount` argument of pay_order.cdc. */
  fusdAmount: v.string(),
  /** When the reservation ends unless paid. */
  expiresAt: DateTime,
  payments: v.array(FusdPaymentJson),
  order: OrderJson,
});
export type FusdOrderJson = v.InferOutput<typeof FusdOrderJson>;

/**
 * The widget's smart-contract options with their signature, as `@wert-io/widget-sc-signer` makes
 * them: pass them to `new WertWidget({ ...signedData, … })` unchanged (the signature covers the
 * six other fields exactly as written here).
 */
export const WertSignedData = v.object({
  /** The buyer's Flow wallet: the NFT's recipient, and where the provider sends the coins if the transaction fails. */
  address: v.string(),
  commodity: v.string(),
  /** Coins (FUSD: dollars) to send, at most 8 decimals. */
  commodity_amount: v.number(),
  network: v.string(),
  /** The platform's treasury account on Flow. */
  sc_address: v.string(),
  /** `0x` + hex of the purchase's JSON: `{ orderId, blueprintId | blueprintPackId, recipient }`. */
  sc_input_data: v.string(),
  /** Ed25519 over the six fields, 128 upper-case hex digits. */
  signature: v.string(),
});
export type WertSignedData = v.InferOutput<typeof WertSignedData>;

/** What the widget shows of the item (`extra.item_info`); the name is at most 40 characters. */
export const WertItemInfo = v.object({
  name: v.string(),
  image_url: v.optional(v.string()),
  author: v.optional(v.string()),
  seller: v.optional(v.string()),
  category: v.optional(v.string()),
});
export type WertItemInfo = v.InferOutput<typeof WertItemInfo>;

/** An on-ramp charge as POST/GET/PATCH wert-charges answer it. */
export const WertChargeJson = v.object({
  id: v.string(),
  /** The widget's `click_id` (this charge's id). */
  clickId: v.string(),
  status: v.picklist(wertChargeStatuses),
  /** The widget's `partner_id` and `origin`. */
  partnerId: v.string(),
  origin: v.string(),
  signedData: WertSignedData,
  /** The widget's `extra.item_info`. */
  itemInfo: WertItemInfo,
  amount: Count,
  walletAddress: v.string(),
  /** The provider's order (once a payment started) and its transaction. */
  providerOrderId: v.nullable(v.string()),
  txId: v.nullable(v.string()),
  /** True while the buyer can still pay in the widget (resume) or cancel. */
  unresolved: v.boolean(),
  /** True once the provider confirmed the payment (the edition is being or was minted). */
  success: v.boolean(),
  /** True while cancelling is allowed (nothing confirmed paid). */
  cancellable: v.boolean(),
  /** The FUSD transfer of a payment that went back. */
  fusdTransactionId: v.nullable(v.string()),
  expiresAt: DateTime,
  createdAt: DateTime,
  order: OrderJson,
});
export type WertChargeJson = v.InferOutput<typeof WertChargeJson>;
export const WertChargeList = resultsOf(WertChargeJson);

/** A price in NFM: FRR per USD (rate), the cents asked, the NFM in its smallest unit (18 decimals). */
export const TokenPriceConversionJson = v.object({
  from: v.literal('USD'),
  to: v.literal('FRR'),
  rate: v.string(),
  amount: Count,
  value: v.string(),
});
export type TokenPriceConversionJson = v.InferOutput<typeof TokenPriceConversionJson>;

/** A utility-token (NFM) charge as POST/GET/PATCH token-charges answer it. */
export const TokenChargeJson = v.object({
  id: v.string(),
  type: v.literal('directPurchase'),
  ethAddress: v.string(),
  toCurrency: v.picklist(['USD', 'FRR']),
  status: v.picklist(tokenChargeStatuses),
  signature: v.nullable(v.string()),
  /** The price, in cents. */
  tokenPrice: Count,
  /** The NFM due, smallest unit, a decimal string. */
  tokenAmount: v.string(),
  /** Where and on which chain to pay. */
  chainId: v.number(),
  tokenAddress: v.string(),
  paymentsAddress: v.string(),
  /** Transfers reported for it: hash and the NFM value it carried. */
  transactions: v.array(v.object({ hash: v.string(), value: v.string() })),
  blueprintId: v.nullable(v.string()),
  blueprintPackId: v.nullable(v.string()),
  createdAt: DateTime,
  order: v.nullable(OrderJson),
});
export type TokenChargeJson = v.InferOutput<typeof TokenChargeJson>;
export const TokenChargeList = resultsOf(TokenChargeJson);
