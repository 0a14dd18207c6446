import * as v from 'valibot';
import type { ApiErrorBody } from './errors';
import { Email } from './schemas/accounts';
import { StorefrontBio, StorefrontName, VanityUrl } from './schemas/storefronts';
import { fieldError } from './validation';

/**
 * The text fields of a storefront as the creation wizard and Dashboard → Account check them, with
 * the schemas the server checks them with: a name of 2 to 50 characters, a bio of 2 to 2000, a
 * contact email, and a vanity URL of 2 to 50 letters, digits, underscores or hyphens.
 */
export const storefrontTextFields = {
  name: StorefrontName,
  description: StorefrontBio,
  contactEmail: Email,
  vanityUrl: v.pipe(v.string(), v.trim(), VanityUrl),
} as const;
export type StorefrontTextField = keyof typeof storefrontTextFields;

/** The first problem of a storefront's text field, as the server would report it; null when valid. */
export const storefrontFieldError = (field: StorefrontTextField, value: string): ApiErrorBody | null =>
  fieldError(field, storefrontTextFields[field], value);
