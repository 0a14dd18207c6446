import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { renderAsync } from '@resvg/resvg-js';
import satori from 'satori';
import sharp from 'sharp';
import { IMAGE_MAX_SIDE } from '#domain/assets';
import { isMediaKey, type MediaStorage } from '../storage/storage';
import { SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH, type ShareCard } from './card';

/**
 * Draws a share card as a 1200 × 630 PNG: satori lays out the template in the product's font
 * (Inter, from @fontsource/inter: every subset it ships, regular and bold, as WOFF since satori reads
 * no WOFF2) and colors (src/styles/tokens.css, light theme) into SVG, and resvg rasterizes it off the
 * event loop. Artwork and logo come from the media store, resized by sharp to the size they are
 * drawn at before satori sees them.
 */

/** The light theme's colors (src/styles/tokens.css). */
const COLOR = {
  bg: '#ffffff',
  surface: '#f6f6f8',
  border: '#e3e3e8',
  text: '#15151a',
  muted: '#5d5d6b',
  primary: '#5b3df5',
  primaryText: '#ffffff',
} as const;

/** The artwork is a square of this side, centred in the left 630 × 630 of the image. */
const ARTWORK_SIDE = 534;
const LOGO_SIDE = 56;
/** The resized copy (server/media.ts) an artwork is read from when it exists: wide enough for the square. */
const ARTWORK_COPY_WIDTH = 640;

const require = createRequire(import.meta.url);
/** Each subset of Inter fontsource ships, by the code points it covers ("U+0370-0377,U+037A,…"). */
const subsets = require('@fontsource/inter/unicode.json') as Record<string, string>;
const fontFile = (subset: string, weight: 400 | 700) =>
  readFile(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`));

/**
 * Each subset is a family of its own (`Inter latin`, …), named in that order in the template's
 * font-family: satori falls back from family to family for a character, not between faces of one.
 */
const families = ['latin', ...Object.keys(subsets).filter((subset) => subset !== 'latin')];
const FONT_FAMILY = families.map((subset) => `Inter ${subset}`).join(', ');

let fonts: ReturnType<typeof loadFonts> | undefined;
/** Every subset of Inter in both weights: one list, so satori parses them once. */
function loadFonts() {
  const faces = families.flatMap((subset) =>
    ([400, 700] as const).map(async (weight) => ({
      name: `Inter ${subset}`,
      data: await fontFile(subset, weight),
      weight,
      style: 'normal' as const,
    })),
  );
  return Promise.all(faces);
}

/** The code point ranges Inter covers. */
const covered: [number, number][] = Object.values(subsets).flatMap((ranges) =>
  ranges.split(',').map((range) => {
    const [from = '', to = from] = range.trim().slice(2).split('-');
    return [Number.parseInt(from, 16), Number.parseInt(to, 16)] as [number, number];
  }),
);
const drawable = (ch: string) => {
  const cp = ch.codePointAt(0)!;
  return /\s/.test(ch) || covered.some(([from, to]) => cp >= from && cp <= to);
};

/**
 * The text without the characters the font has no glyph for (emoji, CJK and other scripts Inter
 * lacks), which would be drawn as boxes: a preview shows the rest.
 */
export const inFont = (text: string) =>
  Array.from(text).filter(drawable).join('').replace(/\s+/g, ' ').trim();

/** The store key of a /media/ URL; null for any other URL. */
function mediaKey(url: string | null): string | null {
  if (!url?.startsWith('/media/')) return null;
  const key = url.slice('/media/'.length);
  return isMediaKey(key) ? key : null;
}

/**
 * The image at `url` resized to cover side × side, as a data URL (JPEG for the opaque artwork, PNG
 * for a logo that may be transparent); null when it is not in the store or cannot be decoded (the
 * template then draws an empty frame).
 */
async function mediaImage(
  storage: MediaStorage,
  url: string | null,
  side: number,
  format: 'jpeg' | 'png',
): Promise<string | null> {
  const key = mediaKey(url);
  if (!key) return null;
  const copy = /\.(jpe?g|png)$/i.test(key) ? await storage.read(`${key}.w${ARTWORK_COPY_WIDTH}.webp`) : null;
  const bytes = copy ?? (await storage.read(key));
  if (!bytes) return null;
  try {
    const resized = sharp(bytes, { limitInputPixels: IMAGE_MAX_SIDE * IMAGE_MAX_SIDE })
      .rotate()
      .resize(side, side, { fit: 'cover' });
    const out =
      format === 'jpeg'
        ? await resized.flatten({ background: COLOR.bg }).jpeg({ quality: 88 }).toBuffer()
        : await resized.png().toBuffer();
    return `data:image/${format};base64,${out.toString('base64')}`;
  } catch {
    return null;
  }
}

/** Titles longer than this are set smaller. */
const LONG_TITLE = 40;

function Template({ card, artwork, logo }: { card: ShareCard; artwork: string | null; logo: string | null }) {
  const price = card.price && (
    <div
      style={{
        display: 'flex',
        alignSelf: 'flex-start',
        marginTop: 28,
        padding: '10px 28px',
        borderRadius: 999,
        fontSize: 40,
        fontWeight: 700,
        background: card.price === 'Sold out' ? COLOR.border : COLOR.primary,
        color: card.price === 'Sold out' ? COLOR.muted : COLOR.primaryText,
      }}
    >
      {card.price}
    </div>
  );
  return (
    <div
      style={{
        width: SHARE_IMAGE_WIDTH,
        height: SHARE_IMAGE_HEIGHT,
        display: 'flex',
        background: COLOR.bg,
        color: COLOR.text,
        fontFamily: FONT_FAMILY,
      }}
    >
      <div
        style={{
          width: SHARE_IMAGE_HEIGHT,
          height: SHARE_IMAGE_HEIGHT,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          background: COLOR.surface,
        }}
      >
        {artwork ? (
          <img src={artwork} width={ARTWORK_SIDE} height={ARTWORK_SIDE} style={{ borderRadius: 16 }} alt="" />
        ) : (
          <div
            style={{
              display: 'flex',
              width: ARTWORK_SIDE,
              height: ARTWORK_SIDE,
              borderRadius: 16,
              background: COLOR.border,
            }}
          />
        )}
      </div>
      <div
        style={{
          flex: 1,
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'space-between',
          padding: '56px 56px 48px 52px',
        }}
      >
        <div style={{ display: 'flex', alignItems: 'center', height: LOGO_SIDE }}>
          {card.storefront && logo && (
            <img
              src={logo}
              width={LOGO_SIDE}
              height={LOGO_SIDE}
              style={{ borderRadius: 999, marginRight: 16 }}
              alt=""
            />
          )}
          {card.storefront && (
            <div
              style={{ display: 'block', fontSize: 28, fontWeight: 700, color: COLOR.muted, lineClamp: 1 }}
            >
              {inFont(card.storefront.name)}
            </div>
          )}
        </div>
        <div style={{ display: 'flex', flexDirection: 'column' }}>
          <div
            style={{
              display: 'block',
              fontSize: card.title.length > LONG_TITLE ? 44 : 56,
              fontWeight: 700,
              lineHeight: 1.15,
              lineClamp: 3,
            }}
          >
            {inFont(card.title)}
          </div>
          {card.note && (
            <div
              style={{
                display: 'block',
                marginTop: 16,
                fontSize: 28,
                lineHeight: 1.35,
                color: COLOR.muted,
                lineClamp: 3,
              }}
            >
              {inFont(card.note)}
            </div>
          )}
          {price}
        </div>
        <div style={{ display: 'flex', fontSize: 30, fontWeight: 700, color: COLOR.primary }}>Vitrine</div>
      </div>
    </div>
  );
}

/** The card drawn as a 1200 × 630 PNG. */
export async function renderShareImage(card: ShareCard, storage: MediaStorage): Promise<Buffer> {
  fonts ??= loadFonts();
  const [artwork, logo, faces] = await Promise.all([
    mediaImage(storage, card.artwork, ARTWORK_SIDE, 'jpeg'),
    mediaImage(storage, card.storefront?.logoUrl ?? null, LOGO_SIDE * 2, 'png'),
    fonts,
  ]);
  const svg = await satori(<Template card={card} artwork={artwork} logo={logo} />, {
    width: SHARE_IMAGE_WIDTH,
    height: SHARE_IMAGE_HEIGHT,
    fonts: faces,
  });
  const image = await renderAsync(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  return image.asPng();
}
