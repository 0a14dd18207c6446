import * as v from 'valibot';
import { parseDollars } from '../money';
import { fieldObject, textField } from '../validation';

/**
 * The blueprint form and PATCH blueprints: title 1–200, description
 * 1–2000, price 0 (free: claimed, not bought) or 0.01–10000 USD in steps of 0.01 (sent and stored
 * as cents), quantity 1–10000,
 * preview and asset required (the caller's own uploads), royalty on resales 0–50 %.
 */
export const BLUEPRINT_TITLE = { min: 1, max: 200 } as const;
export const BLUEPRINT_DESCRIPTION = { min: 1, max: 2000 } as const;
export const BLUEPRINT_PRICE_CENTS = { min: 0, max: 1_000_000 } as const;
export const BLUEPRINT_QUANTITY = { min: 1, max: 10_000 } as const;
export const BLUEPRINT_ROYALTY = { min: 0, max: 50, default: 10 } as const;

const integer = (field: string, min: number, max: number) =>
  v.pipe(
    v.number(`INVALID_VALUE.${field}`),
    v.integer(`INVALID_VALUE.${field}`),
    v.minValue(min, `INVALID_VALUE.${field}`),
    v.maxValue(max, `INVALID_VALUE.${field}`),
  );
const upload = (code: string) =>
  v.pipe(v.string(code), v.regex(/^\/media\/uploads\/[0-9a-f-]{36}\/[\w-][\w.-]*$/, code));

export const blueprintFields = {
  title: textField('title', BLUEPRINT_TITLE.min, BLUEPRINT_TITLE.max),
  description: textField('description', BLUEPRINT_DESCRIPTION.min, BLUEPRINT_DESCRIPTION.max),
  price: integer('price', BLUEPRINT_PRICE_CENTS.min, BLUEPRINT_PRICE_CENTS.max),
  quantity: integer('quantity', BLUEPRINT_QUANTITY.min, BLUEPRINT_QUANTITY.max),
  royaltyPercent: v.pipe(
    v.number('INVALID_VALUE.royaltyPercent'),
    v.minValue(BLUEPRINT_ROYALTY.min, 'INVALID_VALUE.royaltyPercent'),
    v.maxValue(BLUEPRINT_ROYALTY.max, 'INVALID_VALUE.royaltyPercent'),
  ),
  previewImageUrl: upload('preview_required'),
  assetUrl: upload('asset_required'),
};

/** POST blueprints: a standalone, non-drop draft of the caller's storefront. */
export const BlueprintCreateInput = fieldObject({
  title: blueprintFields.title,
  description: blueprintFields.description,
  price: blueprintFields.price,
  quantity: blueprintFields.quantity,
  royaltyPercent: v.optional(blueprintFields.royaltyPercent, BLUEPRINT_ROYALTY.default),
  type: v.optional(v.literal('standalone', 'INVALID_VALUE.type'), 'standalone'),
  drop: v.optional(v.literal(false, 'INVALID_VALUE.drop'), false),
  previewImageUrl: blueprintFields.previewImageUrl,
  assetUrl: blueprintFields.assetUrl,
  optimizePreview: v.optional(v.boolean('INVALID_VALUE.optimizePreview'), false),
  optimizeAsset: v.optional(v.boolean('INVALID_VALUE.optimizeAsset'), false),
});
export type BlueprintCreateInput = v.InferInput<typeof BlueprintCreateInput>;

/**
 * PATCH blueprints/{id}: content fields (drafts only), `visible` (hide/show), `status: readyToSell`
 * (publish a draft) or `state: canceled` (end an active sale for good).
 */
export const BlueprintPatchInput = fieldObject({
  title: v.optional(blueprintFields.title),
  description: v.optional(blueprintFields.description),
  price: v.optional(blueprintFields.price),
  quantity: v.optional(blueprintFields.quantity),
  royaltyPercent: v.optional(blueprintFields.royaltyPercent),
  previewImageUrl: v.optional(blueprintFields.previewImageUrl),
  assetUrl: v.optional(blueprintFields.assetUrl),
  optimizePreview: v.optional(v.boolean('INVALID_VALUE.optimizePreview')),
  optimizeAsset: v.optional(v.boolean('INVALID_VALUE.optimizeAsset')),
  visible: v.optional(v.boolean('INVALID_VALUE.visible')),
  status: v.optional(v.literal('readyToSell', 'INVALID_VALUE.status')),
  state: v.optional(v.literal('canceled', 'INVALID_VALUE.state')),
});
export type BlueprintPatchInput = v.InferInput<typeof BlueprintPatchInput>;

/**
 * What the form checks before uploading: the create rules, with the preview and asset present as
 * either an uploaded URL or a chosen file (uploaded on save).
 */
const present = (code: string) => v.pipe(v.string(code), v.minLength(1, code));
export const BlueprintFormCheck = fieldObject({
  ...BlueprintCreateInput.entries,
  previewImageUrl: present('preview_required'),
  assetUrl: present('asset_required'),
});

/** The form's price field (dollars, as typed) in cents, or null when it is not a valid price. */
export function priceCents(dollars: string): number | null {
  const cents = parseDollars(dollars);
  if (cents === null || cents < BLUEPRINT_PRICE_CENTS.min || cents > BLUEPRINT_PRICE_CENTS.max) return null;
  return cents;
}
