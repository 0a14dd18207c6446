/**
 * Uploads: which files each asset kind takes, checked in the browser
 * before uploading and by the server on the bytes it receives (real type and size, not the name).
 */
export const assetKinds = [
  'blueprintAsset',
  'blueprintPreviewImage',
  'blueprintPackCoverImage',
  'celebrityImage',
  'creationImage',
  'partnerLogo',
  'fandomBanner',
  'fandomLogo',
  'storefrontBanner',
  'storefrontLogo',
  'userAvatar',
  'unknown',
] as const;
export type AssetKind = (typeof assetKinds)[number];

export type ImageFormat = 'jpeg' | 'png' | 'gif';
export const mimeTypes: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

export interface AssetRule {
  formats: ImageFormat[];
  maxBytes: number;
  minWidth: number;
  minHeight: number;
  maxWidth: number;
  maxHeight: number;
  /** Width and height must be equal (1:1). */
  square?: boolean;
}

/** Largest side accepted for any image (IMAGE_MAX_WIDTH / IMAGE_MAX_HEIGHT). */
export const IMAGE_MAX_SIDE = 8000;
const rule = (formats: ImageFormat[], maxBytes: number, minWidth: number, minHeight: number): AssetRule => ({
  formats,
  maxBytes,
  minWidth,
  minHeight,
  maxWidth: IMAGE_MAX_SIDE,
  maxHeight: IMAGE_MAX_SIDE,
});
const MB = 1_000_000;

/**
 * Logo at least 100×100 and at most 1 MB; banner at least 300×100, 2 MB; avatar square (1:1), at
 * least 256×256, 1 MB; NFT files at least 200×200.
 */
export const assetRules: Record<AssetKind, AssetRule> = {
  storefrontLogo: rule(['png', 'jpeg'], MB, 100, 100),
  storefrontBanner: rule(['png', 'jpeg'], 2 * MB, 300, 100),
  userAvatar: { ...rule(['png', 'gif', 'jpeg'], MB, 256, 256), square: true },
  blueprintPreviewImage: rule(['jpeg', 'png', 'gif'], MB, 200, 200),
  blueprintAsset: rule(['jpeg', 'png', 'gif'], 2 * MB, 200, 200),
  blueprintPackCoverImage: rule(['jpeg', 'png', 'gif'], MB, 200, 200),
  celebrityImage: rule(['jpeg', 'png'], MB, 100, 100),
  creationImage: rule(['jpeg', 'png', 'gif'], 2 * MB, 200, 200),
  partnerLogo: rule(['jpeg', 'png'], MB, 100, 100),
  fandomBanner: rule(['jpeg', 'png'], 2 * MB, 300, 100),
  fandomLogo: rule(['jpeg', 'png'], MB, 100, 100),
  unknown: rule(['jpeg', 'png', 'gif'], MB, 1, 1),
};

/** The first rule an image breaks (its file error code, shown as errors.{code}), or null. */
export function checkImage(
  kind: AssetKind,
  image: { format: string | undefined; bytes: number; width: number | undefined; height: number | undefined },
):
  | 'FILE_TYPE'
  | 'FILE_SIZE_BIG'
  | 'IMAGE_MIN_WIDTH'
  | 'IMAGE_MIN_HEIGHT'
  | 'IMAGE_MAX_WIDTH'
  | 'IMAGE_MAX_HEIGHT'
  | 'IMAGE_ASPECT'
  | null {
  const r = assetRules[kind];
  if (!image.format || !r.formats.includes(image.format as ImageFormat)) return 'FILE_TYPE';
  if (image.bytes > r.maxBytes) return 'FILE_SIZE_BIG';
  const width = image.width ?? 0;
  const height = image.height ?? 0;
  if (width < r.minWidth) return 'IMAGE_MIN_WIDTH';
  if (height < r.minHeight) return 'IMAGE_MIN_HEIGHT';
  if (width > r.maxWidth) return 'IMAGE_MAX_WIDTH';
  if (height > r.maxHeight) return 'IMAGE_MAX_HEIGHT';
  if (r.square && width !== height) return 'IMAGE_ASPECT';
  return null;
}

/**
 * Responsive images: every JPEG or PNG stored under /media also exists as WebP copies at these
 * widths (px), never wider than the original, at `{url}.w{width}.webp`. Pages offer them with
 * srcset/sizes, so a 280-pixel card fetches the 320-pixel copy, not the 1000-pixel original.
 * GIFs (possibly animated) and images hosted elsewhere have no copies.
 */
export const IMAGE_WIDTHS = [320, 640, 1000, 1600] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

const RESIZABLE = /^\/media\/[^?#]+\.(jpe?g|png)$/i;

/** Where the WebP copy of a stored image at one of IMAGE_WIDTHS is served. */
export const imageCopyUrl = (url: string, width: ImageWidth) => `${url}.w${width}.webp`;

/** The srcset of a stored image's WebP copies, or null when it has none (GIF, outside /media). */
export function webpSrcSet(url: string | null | undefined): string | null {
  if (!url || !RESIZABLE.test(url)) return null;
  return IMAGE_WIDTHS.map((w) => `${imageCopyUrl(url, w)} ${w}w`).join(', ');
}
