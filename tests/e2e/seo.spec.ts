import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { freePort } from '../../server/chain/emulator';
import { expect, test } from './support';

/**
 * Lighthouse (the npm package, in Debian's Chromium) on the six public pages of issue 38: its SEO
 * audits that search engines read, and its accessibility and best-practices categories whole. One
 * run a page, without the performance category (the bench measures speed); each run's report is
 * kept in test-results/lighthouse/ for reading.
 */
const AUDITS = [
  'document-title',
  'meta-description',
  'canonical',
  'robots-txt',
  'hreflang',
  'link-text',
  'crawlable-anchors',
  'http-status-code',
  'is-crawlable',
] as const;

test('Lighthouse finds every public page findable, accessible and well made', async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  // What the crawler reads before any page: a robots.txt (Lighthouse's audit passes a missing one
  // too) naming the sitemap, and a 404 for a page that does not exist.
  const robots = await page.request.get('/robots.txt');
  expect.soft(robots.status()).toBe(200);
  expect.soft(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  expect
    .soft((await page.request.get('/sitemap.xml')).headers()['content-type'])
    .toMatch(/^application\/xml/);
  expect.soft((await page.request.get('/no-such-page')).status()).toBe(404);
  const item = (await (await page.request.get('/api/blueprints?to=1')).json()).results[0].id as string;
  const paths = ['/', '/marketplace', '/storefronts', '/s/aria-sounds', `/nft/${item}`, '/creators'];

  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      `--remote-debugging-port=${port}`,
    ],
  });
  mkdirSync('test-results/lighthouse', { recursive: true });
  const failures: string[] = [];
  try {
    for (const path of paths) {
      const result = await lighthouse(`${baseURL}${path}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['seo', 'accessibility', 'best-practices'],
        // Lighthouse's own device (a phone's screen), but no throttling: speed is the bench's, and
        // each run takes seconds.
        throttlingMethod: 'provided',
      });
      const lhr = result!.lhr;
      writeFileSync(
        `test-results/lighthouse/${path.replace(/\W+/g, '_') || 'home'}.json`,
        JSON.stringify(lhr, null, 1),
      );
      for (const id of AUDITS) {
        const audit = lhr.audits[id]!;
        // Not applicable (no hreflang on a page in one language, no canonical yet) counts as passed.
        if (audit.score !== 1 && audit.scoreDisplayMode !== 'notApplicable')
          failures.push(`${path} ${id}: ${audit.title} ${JSON.stringify(audit.details ?? '')}`.slice(0, 400));
      }
      for (const category of ['accessibility', 'best-practices'] as const) {
        if (lhr.categories[category]!.score === 1) continue;
        const failed = lhr.categories[category]!.auditRefs.filter(
          (ref) => ref.weight > 0 && lhr.audits[ref.id]!.score !== null && lhr.audits[ref.id]!.score! < 1,
        );
        failures.push(
          `${path} ${category} ${lhr.categories[category]!.score}: ${failed.map((r) => r.id).join(', ')}`,
        );
      }
    }
  } finally {
    await browser.close();
  }
  expect(failures).toEqual([]);
});
