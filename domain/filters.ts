import type { BlueprintState, StorefrontCategory } from './enums';

/** Marketplace and storefront grid filters as the views hold them (money in cents). */
export interface BlueprintFilter {
  search?: string;
  min?: number;
  max?: number;
  storefrontCategories?: StorefrontCategory[];
  storefrontId?: string;
  /** Blueprint states (owners of the storefront may ask for any; visitors get public ones only). */
  states?: BlueprintState[];
  visible?: boolean;
  /** Also count the matches that can be bought or claimed now (the marketplace's "N items available"). */
  countAvailable?: boolean;
  sort?: 'price' | 'quantity' | 'createdAt' | 'trending';
  direction?: 'asc' | 'desc';
  from?: number;
  to?: number;
}
export interface StorefrontFilter {
  search?: string;
  categories?: StorefrontCategory[];
  /** Created date (the default) or all-time volume. */
  sort?: 'createdAt' | 'volume';
  direction?: 'asc' | 'desc';
  from?: number;
  to?: number;
}
export type { ShareLinks } from './responses/catalog';
