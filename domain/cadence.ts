/**
 * Cadence sources import contracts by name (`import "VitrineNFT"`). Before a source is sent to a
 * network its imports are bound to that network's addresses (server and browser alike).
 */
const importByName = /^([ \t]*)import[ \t]+"([A-Za-z_][A-Za-z0-9_]*)"[ \t]*;?[ \t]*$/gm;

/** Replaces every `import "Name"` with `import Name from 0x…`; an unknown name is an error. */
export function bindImports(source: string, addresses: Readonly<Record<string, string | undefined>>): string {
  return source.replace(importByName, (_line, indent: string, name: string) => {
    const address = addresses[name];
    if (!address) throw new Error(`Cadence imports "${name}", whose address is not configured`);
    return `${indent}import ${name} from ${address}`;
  });
}
