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
  image: ImageFacts,
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

/** The facts of an image a rule is checked against (what the browser or the server read of it). */
export interface ImageFacts {
  format: string | undefined;
  bytes: number;
  width: number | undefined;
  height: number | undefined;
}

const formatNames: Record<ImageFormat, string> = { png: 'PNG', jpeg: 'JPG', gif: 'GIF' };
/** "PNG or JPG", "PNG, JPG or GIF". */
const listed = (names: string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
/**
 * A size in bytes as the rules state it, 1 MB being 1,000,000 bytes ("1 MB", "1.4 MB", "850 KB");
 * `up` rounds up, so a file over a limit never reads as the limit itself (1,000,001 bytes: "1.1 MB").
 */
export function formatBytes(bytes: number, up = false): string {
  const round = (n: number, step: number) => (up ? Math.ceil(n / step) : Math.round(n / step)) * step;
  if (bytes >= MB) return `${Number(round(bytes / MB, 0.1).toFixed(1))} MB`;
  if (bytes >= 1000) return `${round(bytes / 1000, 1)} KB`;
  return `${bytes} B`;
}

/**
 * The first rule an image breaks as an error body without its field: the code (as checkImage) and
 * the values its text names, the rule's limits and the image's own size, e.g. IMAGE_MIN_WIDTH with
 * "This image is 80 × 80 pixels: it must be at least 100 × 100." The browser checks a chosen image
 * with it before anything is sent, and the server the bytes it receives: one rule, one text.
 */
export function imageProblem(
  kind: AssetKind,
  image: ImageFacts,
): { code: NonNullable<ReturnType<typeof checkImage>>; params: Record<string, string | number> } | null {
  const code = checkImage(kind, image);
  if (!code) return null;
  const r = assetRules[kind];
  return {
    code,
    params: {
      formats: listed(r.formats.map((f) => formatNames[f])),
      maxSize: formatBytes(r.maxBytes),
      size: formatBytes(image.bytes, true),
      width: image.width ?? 0,
      height: image.height ?? 0,
      minWidth: r.minWidth,
      minHeight: r.minHeight,
      maxWidth: r.maxWidth,
      maxHeight: r.maxHeight,
    },
  };
}

/** The rule of a kind in words, for the hint under its picker: "PNG or JPG, at least 100 × 100 pixels, up to 1 MB." */
export function imageRuleHint(kind: AssetKind): string {
  const r = assetRules[kind];
  const formats = listed(r.formats.map((f) => formatNames[f]));
  const shape = r.square ? 'square, ' : '';
  return `${formats}, ${shape}at least ${r.minWidth} × ${r.minHeight} pixels, up to ${formatBytes(r.maxBytes)}.`;
}

/**
 * Responsive images: every JPEG or PNG stored under /media also exists as WebP copies at these
 * widths (px), never wider than the original, at `{url}.w{width}.webp`. Pages offer them with
 * srcset/sizes, so a 280-pixel card fetches the 320-pixel copy, not the 1000-pixel original, and a
 * 48-pixel logo or avatar the 96-pixel one (sharp on a screen of twice the pixels; a third of the
 * 320-pixel copy's bytes). GIFs (possibly animated) and images hosted elsewhere have no copies.
 */
export const IMAGE_WIDTHS = [96, 320, 640, 1000, 1600] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

const RESIZABLE = /^\/media\/[^?#]+\.(jpe?g|png)$/i;

/** Where the WebP copy of a stored image at one of IMAGE_WIDTHS is served. */
export const imageCopyUrl = (url: string, width: ImageWidth) => `${url}.w${width}.webp`;

/** The srcset of a stored image's WebP copies, or null when it has none (GIF, outside /media). */
export function webpSrcSet(url: string | null | undefined): string | null {
  if (!url || !RESIZABLE.test(url)) return null;
  return IMAGE_WIDTHS.map((w) => `${imageCopyUrl(url, w)} ${w}w`).join(', ');
}
