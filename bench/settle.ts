import { execFileSync } from 'node:child_process';

/**
 * Has the kernel write out what is waiting to be written (a world just loaded, or the data an
 * earlier benchmark loaded and deleted): otherwise its writeback runs beside the measurements that
 * follow, on the same two cores.
 */
export function settleDisk(): void {
  try {
    execFileSync('sync');
  } catch {
    // no sync(1) on this system: the measurements run as they are
  }
}
