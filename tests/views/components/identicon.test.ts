import { describe, expect, it } from 'vitest';
import {
  fnv1a,
  IDENTICON_GRID,
  identicon,
  identiconDataUrl,
  identiconSvg,
  normalizeIdenticonSeed,
} from '#domain/identicon';

const flowAddress = '0xf8d6e0586b0a20c7';
const evmAddress = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('identicon', () => {
  it('is deterministic: the same seed gives the same grid, colours and SVG', () => {
    expect(identicon(flowAddress)).toEqual(identicon(flowAddress));
    expect(identiconSvg(flowAddress)).toBe(identiconSvg(flowAddress));
    expect(identiconDataUrl(flowAddress, 40)).toBe(identiconDataUrl(flowAddress, 40));
  });

  it('gives different pictures for different seeds', () => {
    const seeds = [flowAddress, '0x01cf0e2f2f715450', '0x179b6b1cb6755e31', evmAddress, 'alice', 'bob'];
    const svgs = new Set(seeds.map((seed) => identiconSvg(seed)));
    expect(svgs.size).toBe(seeds.length);
    expect(identicon('0x0000000000000001')).not.toEqual(identicon('0x0000000000000002'));
  });

  it('treats an address case-insensitively and ignores surrounding spaces', () => {
    expect(normalizeIdenticonSeed(`  ${evmAddress} `)).toBe(evmAddress.toLowerCase());
    expect(identiconSvg(evmAddress)).toBe(identiconSvg(evmAddress.toLowerCase()));
  });

  it('draws a horizontally symmetric 5x5 grid with at least one filled cell', () => {
    for (const seed of [flowAddress, evmAddress, '', 'x', 'a much longer seed string with spaces']) {
      const { cells } = identicon(seed);
      expect(cells).toHaveLength(IDENTICON_GRID);
      for (const row of cells) {
        expect(row).toHaveLength(IDENTICON_GRID);
        expect(row).toEqual([...row].reverse());
      }
      expect(cells.flat().some(Boolean)).toBe(true);
    }
  });

  it('derives colours from the hash as hsl() values', () => {
    const { color, background } = identicon(flowAddress);
    expect(color).toMatch(/^hsl\(\d{1,3} \d{2}% \d{2}%\)$/);
    expect(background).toMatch(/^hsl\(\d{1,3} 60% 94%\)$/);
    // Colours vary across seeds.
    const colors = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((seed) => identicon(seed).color));
    expect(colors.size).toBeGreaterThan(1);
  });

  it('produces a parseable SVG document and a data URL that decodes to it', () => {
    const svg = identiconSvg(flowAddress, 48);
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const root = doc.documentElement;
    expect(root.nodeName).toBe('svg');
    expect(root.getAttribute('width')).toBe('48');
    const filled = identicon(flowAddress).cells.flat().filter(Boolean).length;
    // One background rect plus one per filled cell.
    expect(root.querySelectorAll('rect')).toHaveLength(filled + 1);

    const url = identiconDataUrl(flowAddress, 48);
    expect(url.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(url.slice(url.indexOf(',') + 1))).toBe(svg);
  });

  it('hashes with FNV-1a (known vectors)', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});
