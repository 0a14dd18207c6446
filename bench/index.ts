/**
 * `npm run bench`: every benchmark, printing its figures. Each runs in a process of its own, as it
 * runs alone (`npx tsx bench/<name>.ts`): none measures in a heap, a JIT state or an event loop an
 * earlier one left behind (the catalog benchmark's one-client latencies are the most sensitive).
 */
import { execFileSync, execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { settleDisk } from './settle';

execSync('npm run --silent build', { stdio: 'inherit' });
for (const name of [
  'first-load',
  'poll-tick',
  'start',
  'mint',
  'images',
  'share-images',
  'publish',
  'checkout',
  'lanes',
  'race',
  'answers',
  'catalog',
  'stats',
]) {
  // Each starts with the earlier ones' writes on disk.
  settleDisk();
  execFileSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL(`./${name}.ts`, import.meta.url))],
    {
      stdio: 'inherit',
    },
  );
}
