/** `npm run bench`: every benchmark, printing its figures. */
import { execSync } from 'node:child_process';
import { firstLoad } from './first-load';
import { startTimes } from './start';

execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
for (const r of await firstLoad(['/', '/marketplace', '/auth/connect'])) {
  console.log(`first-load JS ${r.path}: ${r.gzipKb} kB gzip in ${r.files} files`);
}
const t = await startTimes();
console.log(`npm start → healthy, fresh data dir (build + migrate): ${t.npmStartFresh} ms`);
console.log(`npm start → healthy, existing data dir (build included): ${t.npmStartWarm} ms`);
console.log(`server only (tsx server/main.ts) → healthy, existing data dir: ${t.serverOnlyWarm} ms`);
