import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { installationCache, writeWhole } from '../files';
import type { MediaStorage } from '../storage/storage';

/**
 * Seed artwork, made on this machine (no network): abstract compositions rendered from SVG with
 * sharp (mozjpeg, quality 85; their resized WebP copies are made in the background once the server
 * runs, see warmImageCopies), and looping mp4 clips encoded by the ffmpeg binary that ships in the
 * @ffmpeg-installer npm package. Files are named by a hash of what they show, so a rerun reuses
 * them and their URLs can be cached forever.
 *
 * The same name always shows the same thing, so each file is made once per installation, in
 * `node_modules/.cache/vitrine/seed-media`, and copied from there into the media store (a data
 * directory or a bucket): a fresh one (a reset `npm start`, every test server) does not render and
 * encode the artwork again (about 15 s of CPU).
 */
export const MEDIA_ROUTE = '/media';
/** The seed's files are stored under this prefix of the store (uploads under `uploads/`). */
export const SEED_PREFIX = 'seed/';
export const JPEG_QUALITY = 85;

const palettes = [
  ['#1b1f3b', '#5b3df5', '#f2a65a', '#f7f3e3'],
  ['#0f3d3e', '#2a9d8f', '#e9c46a', '#f4f1de'],
  ['#2b2d42', '#ef233c', '#8d99ae', '#edf2f4'],
  ['#10002b', '#7b2cbf', '#e0aaff', '#ffd6ff'],
  ['#001219', '#0a9396', '#ee9b00', '#e9d8a6'],
  ['#22223b', '#c9ada7', '#9a8c98', '#f2e9e4'],
  ['#03045e', '#0077b6', '#90e0ef', '#caf0f8'],
  ['#3d0c02', '#d00000', '#ffba08', '#faa307'],
  ['#14213d', '#fca311', '#e5e5e5', '#ffffff'],
  ['#1a1423', '#b75d69', '#eacdc2', '#774c60'],
] as const;

/** A small deterministic PRNG (mulberry32) seeded from a string. */
export function prng(seed: string): () => number {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An abstract composition for `seed` at width × height, as SVG. */
export function artSvg(seed: string, width: number, height: number): string {
  const rnd = prng(seed);
  const p = palettes[Math.floor(rnd() * palettes.length)]!;
  const pick = () => p[1 + Math.floor(rnd() * 3)]!;
  const shapes: string[] = [];
  const n = 5 + Math.floor(rnd() * 6);
  for (let i = 0; i < n; i++) {
    const x = rnd() * width;
    const y = rnd() * height;
    const r = (0.08 + rnd() * 0.3) * Math.min(width, height);
    const opacity = (0.35 + rnd() * 0.55).toFixed(2);
    if (rnd() < 0.55) {
      shapes.push(
        `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(1)}" fill="${pick()}" opacity="${opacity}"/>`,
      );
    } else {
      const sides = 3 + Math.floor(rnd() * 4);
      const turn = rnd() * Math.PI;
      const pts = Array.from({ length: sides }, (_, k) => {
        const a = turn + (k * 2 * Math.PI) / sides;
        return `${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`;
      }).join(' ');
      shapes.push(`<polygon points="${pts}" fill="${pick()}" opacity="${opacity}"/>`);
    }
  }
  const stripes = Array.from({ length: 3 }, (_, i) => {
    const y = ((i + 1) * height) / 4 + (rnd() - 0.5) * height * 0.1;
    return `<rect x="0" y="${y.toFixed(1)}" width="${width}" height="${(height * 0.012).toFixed(1)}" fill="${p[3]}" opacity="0.25"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p[0]}"/><stop offset="1" stop-color="${p[1]}"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}${stripes}</svg>`;
}

const fileName = (kind: string, seed: string, ext: string) =>
  `${kind}-${createHash('sha256').update(`${kind}:${seed}`).digest('hex').slice(0, 16)}.${ext}`;

export interface MediaStore {
  /** Where files are stored; served at /media. */
  storage: MediaStorage;
  /** Where made files are kept for the next data directory; the installation's cache by default. */
  cache?: string;
}

/**
 * Puts the file `name` into the store under SEED_PREFIX (unless it is there): read from the cache, made into the
 * cache first (whole or not at all, so two processes seeding at once each see a whole file or
 * none). Without a writable cache it is made in a temporary directory. Answers its URL path.
 */
async function stored(store: MediaStore, name: string, make: (path: string) => Promise<void>) {
  const key = `${SEED_PREFIX}${name}`;
  const url = `${MEDIA_ROUTE}/${key}`;
  if (await store.storage.exists(key)) return url;
  let cache: string | undefined = store.cache ?? installationCache('seed-media');
  try {
    mkdirSync(cache, { recursive: true });
  } catch {
    cache = undefined;
  }
  const dir = cache ?? mkdtempSync(join(tmpdir(), 'vitrine-seed-'));
  try {
    const kept = join(dir, name);
    if (!existsSync(kept)) await writeWhole(kept, make);
    await store.storage.create(key, readFileSync(kept));
  } finally {
    if (!cache) rmSync(dir, { recursive: true, force: true });
  }
  return url;
}

/** A JPEG of the artwork for `seed`; answers its URL path. */
export async function artImage(
  store: MediaStore,
  kind: 'preview' | 'logo' | 'banner' | 'cover',
  seed: string,
  width: number,
  height: number,
): Promise<string> {
  return stored(store, fileName(`${kind}-${width}x${height}`, seed, 'jpg'), async (path) => {
    await sharp(Buffer.from(artSvg(seed, width, height)))
      .jpeg({ quality: JPEG_QUALITY, mozjpeg: true })
      .toFile(path);
  });
}

const run = promisify(execFile);

/** The ffmpeg binary of @ffmpeg-installer (loaded on first use: only seeding needs it). */
async function ffmpegPath(): Promise<string> {
  const mod = (await import('@ffmpeg-installer/ffmpeg')) as { path: string; default?: { path: string } };
  return mod.default?.path ?? mod.path;
}

/**
 * A 4-second looping H.264 mp4 (720 × 720, slow zoom over the artwork of `seed`, no audio, fast
 * start); answers its URL path.
 */
export async function artVideo(store: MediaStore, seed: string): Promise<string> {
  return stored(store, fileName('clip', seed, 'mp4'), async (path) => {
    const frame = `${path}.png`;
    try {
      await sharp(Buffer.from(artSvg(seed, 1080, 1080)))
        .png()
        .toFile(frame);
      await run(await ffmpegPath(), [
        '-y',
        '-loglevel',
        'error',
        '-loop',
        '1',
        '-i',
        frame,
        '-vf',
        "zoompan=z='1+0.15*sin(PI*on/100)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=720x720:fps=25,format=yuv420p",
        '-frames:v',
        '100',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '26',
        '-movflags',
        '+faststart',
        '-an',
        path,
      ]);
    } finally {
      rmSync(frame, { force: true });
    }
  });
}
