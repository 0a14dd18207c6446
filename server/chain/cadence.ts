import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindImports } from '#domain/cadence';
import type { ContractAddresses } from './config';

export { bindImports };

/**
 * Cadence sources live in cadence/ and import contracts by name (`import "VitrineNFT"`). Before a
 * source is sent to a network its imports are bound to that network's addresses.
 */

export const cadenceDir = fileURLToPath(new URL('../../cadence/', import.meta.url));

const cache = new Map<string, string>();

/** The source of `cadence/<path>` (e.g. `transactions/mint_nft.cdc`), as written. */
export function readCadence(path: string): string {
  let source = cache.get(path);
  if (source === undefined) {
    source = readFileSync(join(cadenceDir, path), 'utf8');
    cache.set(path, source);
  }
  return source;
}

/** The source of `cadence/<path>` with its imports bound to `addresses`. */
export function loadCadence(path: string, addresses: Partial<ContractAddresses>): string {
  return bindImports(readCadence(path), addresses);
}
