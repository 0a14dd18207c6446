/** `npm run bench`: every benchmark, printing its figures. */
import { execSync } from 'node:child_process';
import { catalogBench, print as printCatalog } from './catalog';
import { cardPurchaseTimes, printCheckout } from './checkout';
import { FIRST_LOAD_PAGES, firstLoad, printFirstLoad } from './first-load';
import { imageJobTimes } from './images';
import { mintTimes } from './mint';
import { printPublish, publishTimes } from './publish';
import { printRace, raceBench } from './race';
import { startTimes } from './start';

execSync('npm run --silent build', { stdio: 'inherit' });
printFirstLoad(await firstLoad(FIRST_LOAD_PAGES));
const t = await startTimes();
console.log(`npm start → healthy, fresh data dir (build + migrate): ${t.npmStartFresh} ms`);
console.log(`npm start → healthy, existing data dir (build included): ${t.npmStartWarm} ms`);
console.log(`server only (tsx server/main.ts) → healthy, existing data dir: ${t.serverOnlyWarm} ms`);
const m = await mintTimes(20);
console.log(
  `mint on the emulator, submit → sealed, ${m.n} sequential: median ${m.medianMs.toFixed(1)} ms, p90 ${m.p90Ms.toFixed(1)} ms`,
);
for (const [format, r] of Object.entries(await imageJobTimes())) {
  console.log(
    `image job ${format}: ${(r.bytes / 1e6).toFixed(2)} MB → ${(r.outBytes / 1e6).toFixed(2)} MB, median ${r.medianMs.toFixed(0)} ms`,
  );
}
printPublish(await publishTimes(10));
printCheckout(await cardPurchaseTimes(20));
for (const kind of ['pglite', 'postgres'] as const) printRace(await raceBench(kind));
// The large world (100,000 blueprints, 1,000,000 NFTs) on both databases.
for (const kind of ['postgres', 'pglite'] as const) printCatalog(await catalogBench(kind));
