import type { StorefrontCategory, StorefrontTheme } from '../enums';

/** What the storefront wizard hands the catalog service to create a storefront (POST storefronts). */
export interface CreateStorefrontInput {
  name: string;
  description: string;
  contactEmail: string;
  category: StorefrontCategory | null;
  theme: StorefrontTheme;
  logoUrl: string | null;
  bannerUrl: string | null;
}
