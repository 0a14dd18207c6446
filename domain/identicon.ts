/**
 * Deterministic identicons: a user without an uploaded avatar shows one generated from their wallet
 * address. Pure, no dependencies: the same seed always gives the same picture, in the browser,
 * on the server and in tests.
 *
 * The picture is a 5x5 grid mirrored around its middle column (so only 15 cells are drawn from the hash),
 * in one foreground colour whose hue comes from the hash, on a pale tint of the same hue.
 */

export const IDENTICON_GRID = 5;

export interface IdenticonData {
  /** IDENTICON_GRID rows of IDENTICON_GRID cells; true = filled. Every row is a palindrome. */
  cells: boolean[][];
  /** Foreground colour, `hsl(...)`. */
  color: string;
  /** Background colour, `hsl(...)`. */
  background: string;
}

/**
 * Wallet addresses are case-insensitive hex (Flow `0xf8d6…`, EVM checksummed `0xAbC…`), so the seed is
 * trimmed and lower-cased: both spellings of one address give one identicon.
 */
export function normalizeIdenticonSeed(seed: string): string {
  return seed.trim().toLowerCase();
}

/** FNV-1a, 32 bits, over the UTF-16 code units of the string. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a small seeded generator, so every cell gets well-mixed bits even for short seeds. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function identicon(seed: string): IdenticonData {
  const next = generator(fnv1a(normalizeIdenticonSeed(seed)));
  const hue = Math.floor(next() * 360);
  const saturation = 55 + Math.floor(next() * 25); // 55–79 %
  const lightness = 42 + Math.floor(next() * 14); // 42–55 %: readable on the pale background
  const half = Math.ceil(IDENTICON_GRID / 2);

  const cells: boolean[][] = [];
  let filled = 0;
  for (let row = 0; row < IDENTICON_GRID; row++) {
    const left: boolean[] = [];
    for (let col = 0; col < half; col++) {
      const on = next() < 0.5;
      if (on) filled++;
      left.push(on);
    }
    const mirror = left.slice(0, IDENTICON_GRID - half).reverse();
    cells.push([...left, ...mirror]);
  }
  // An empty grid would look like a missing image: light the centre cell instead.
  if (filled === 0) {
    const middle = Math.floor(IDENTICON_GRID / 2);
    cells[middle]![middle] = true;
  }

  return {
    cells,
    color: `hsl(${hue} ${saturation}% ${lightness}%)`,
    background: `hsl(${hue} 60% 94%)`,
  };
}

/** The identicon as a standalone SVG document (square, `size` px, crisp edges). */
export function identiconSvg(seed: string, size = 64): string {
  const { cells, color, background } = identicon(seed);
  // One unit of padding around the grid keeps the shape off the edge when shown in a circle.
  const box = IDENTICON_GRID + 2;
  const rects: string[] = [];
  cells.forEach((row, y) => {
    row.forEach((on, x) => {
      if (on) rects.push(`<rect x="${x + 1}" y="${y + 1}" width="1" height="1"/>`);
    });
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${box} ${box}" shape-rendering="crispEdges">` +
    `<rect width="${box}" height="${box}" fill="${background}"/>` +
    `<g fill="${color}">${rects.join('')}</g>` +
    '</svg>'
  );
}

/** The identicon as a `data:image/svg+xml` URL, ready for `<img src>` or CSS `background-image`. */
export function identiconDataUrl(seed: string, size = 64): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(identiconSvg(seed, size))}`;
}
