import * as v from 'valibot';
import { storefrontCategories, storefrontThemes } from '../enums';
import { fieldObject, textField } from '../validation';
import { Email } from './accounts';

/**
 * Storefront create and update: name 2–50, bio 2–2000, contact
 * email 3–100, vanity URL of letters, digits, underscore or hyphen, 2–50 (INVALID_VANITY_URL).
 * Logos and banners are the caller's own uploads (/media/uploads/<userId>/…).
 */
export const STOREFRONT_NAME = { min: 2, max: 50 } as const;
export const STOREFRONT_BIO = { min: 2, max: 2000 } as const;
export const VANITY_BASE_MAX = 44;
export const VANITY_SUFFIX_LENGTH = 5;

export const StorefrontName = textField('name', STOREFRONT_NAME.min, STOREFRONT_NAME.max);
export const StorefrontBio = textField('description', STOREFRONT_BIO.min, STOREFRONT_BIO.max);
export const VanityUrl = v.pipe(
  v.string('INVALID_VANITY_URL.vanityUrl'),
  v.regex(/^[A-Za-z0-9_-]{2,50}$/, 'INVALID_VANITY_URL.vanityUrl'),
);
const ImageUrl = (field: string) =>
  v.nullable(
    v.pipe(
      v.string(`INVALID_VALUE.${field}`),
      v.regex(/^\/media\/uploads\/[0-9a-f-]{36}\/[\w-][\w.-]*$/, `INVALID_VALUE.${field}`),
    ),
  );

const fields = {
  name: StorefrontName,
  description: StorefrontBio,
  category: v.nullable(v.picklist(storefrontCategories, 'INVALID_VALUE.category')),
  theme: v.picklist(storefrontThemes, 'INVALID_VALUE.theme'),
  logoUrl: ImageUrl('logoUrl'),
  bannerUrl: ImageUrl('bannerUrl'),
  contactEmail: Email,
  vanityUrl: VanityUrl,
};

/** POST storefronts: name, bio and contact email; the rest may be skipped ("Skip for now"). */
export const StorefrontCreateInput = fieldObject({
  name: fields.name,
  description: fields.description,
  contactEmail: fields.contactEmail,
  category: v.optional(fields.category, null),
  theme: v.optional(fields.theme, 'light'),
  logoUrl: v.optional(fields.logoUrl, null),
  bannerUrl: v.optional(fields.bannerUrl, null),
  vanityUrl: v.optional(fields.vanityUrl),
});
export type StorefrontCreateInput = v.InferOutput<typeof StorefrontCreateInput>;

/** PATCH storefronts/{id}: any of the fields, and enabled. */
export const StorefrontPatchInput = fieldObject({
  name: v.optional(fields.name),
  description: v.optional(fields.description),
  contactEmail: v.optional(fields.contactEmail),
  category: v.optional(fields.category),
  theme: v.optional(fields.theme),
  logoUrl: v.optional(fields.logoUrl),
  bannerUrl: v.optional(fields.bannerUrl),
  vanityUrl: v.optional(fields.vanityUrl),
  enabled: v.optional(v.boolean('INVALID_VALUE.enabled')),
});
export type StorefrontPatchInput = v.InferOutput<typeof StorefrontPatchInput>;

/**
 * A generated vanity URL: the name with spaces replaced, non-word characters stripped, cut to 44,
 * then a dash and 5 random characters.
 */
export function generatedVanityUrl(name: string, random: string): string {
  const base = name
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^\w-]/g, '')
    .slice(0, VANITY_BASE_MAX);
  const suffix = random
    .replace(/[^a-z0-9]/gi, '')
    .slice(0, VANITY_SUFFIX_LENGTH)
    .toLowerCase();
  return `${base || 'storefront'}-${suffix}`;
}
