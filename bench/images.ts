import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { assetRules } from '#domain/assets';
import { createApp } from '../server/app';
import { openDb } from '../server/db';
import { createImageJobHandler, IMAGE_JOB } from '../server/images/jobs';
import { createJobWorker } from '../server/jobs';
import { createStorage } from '../server/storage/config';
import { benchConfig } from './app';

/**
 * Image optimization (issue 5): the time of one job, from POST /api/image-jobs until its poll
 * answers complete, for a photo-like PNG and JPEG of about 2 MB (the largest upload), n runs each.
 */
export async function imageJobTimes(n = 10) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-img-'));
  const config = benchConfig(dataDir);
  const database = await openDb(config);
  const log = { info() {}, error: console.error };
  const storage = createStorage(config);
  // The jobs run on a job worker, as on a server.
  const worker = createJobWorker({
    db: database.db,
    handlers: {
      [IMAGE_JOB]: createImageJobHandler({ db: database.db, storage, log }),
    },
    pollMs: 20,
    log,
  });
  worker.start();
  const app = createApp({ config, database, log, jobs: worker, storage });
  const call = async (path: string, init: RequestInit = {}, token?: string) => {
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    const res = await app.request(path, { ...init, headers });
    return (await res.json()) as Record<string, string>;
  };
  try {
    const email = `bench-${Date.now()}@example.com`;
    const { authToken } = await call('/api/users/registrations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email,
        username: 'bench_user',
        password: 'bench-password-1',
        firstName: 'Bench',
      }),
    });
    // Photo-like content: a gradient with fine noise, as large as a banner may be (2 MB): made
    // near that size, then a little smaller until it fits.
    const photo = async (format: 'png' | 'jpeg') => {
      let [w, h] = format === 'png' ? [960, 760] : [1900, 1450];
      for (;;) {
        const raw = randomBytes(w * h * 3);
        for (let i = 0; i < raw.length; i++) raw[i] = (raw[i]! % 48) + ((i / 3) % w) / (w / 160);
        const img = sharp(raw, { raw: { width: w, height: h, channels: 3 } });
        const bytes = await (format === 'png' ? img.png() : img.jpeg({ quality: 98 })).toBuffer();
        if (bytes.length <= assetRules.storefrontBanner.maxBytes) return bytes;
        [w, h] = [Math.floor(w * 0.97), Math.floor(h * 0.97)];
      }
    };
    const results: Record<string, { bytes: number; medianMs: number; outBytes: number }> = {};
    for (const format of ['png', 'jpeg'] as const) {
      const input = await photo(format);
      const times: number[] = [];
      let outBytes = 0;
      for (let i = 0; i < n; i++) {
        const mime = format === 'png' ? 'image/png' : 'image/jpeg';
        const grant = await call(
          `/api/assets/upload-url?mimeType=${mime}&objectKey=bench-${i}.${format === 'png' ? 'png' : 'jpg'}&assetKind=storefrontBanner`,
          {},
          authToken,
        );
        const form = new FormData();
        form.set('file', new File([new Uint8Array(input)], `bench.${format}`, { type: mime }));
        form.set('uploadUrl', grant.url!);
        form.set('quality', '85');
        const started = performance.now();
        const posted = await call('/api/image-jobs', { method: 'POST', body: form }, authToken);
        if (!posted.jobId) throw new Error(`image job ${format} refused: ${JSON.stringify(posted)}`);
        const { jobId } = posted;
        let job: Record<string, string> = { status: 'pending' };
        while (job.status === 'pending') {
          await new Promise((r) => setTimeout(r, 10));
          job = await call(`/api/image-jobs/${jobId}`, {}, authToken);
        }
        if (job.status !== 'complete') throw new Error(`image job ${format}: ${JSON.stringify(job)}`);
        times.push(performance.now() - started);
        outBytes = (await (await app.request(job.url!)).arrayBuffer()).byteLength;
      }
      times.sort((a, b) => a - b);
      results[format] = { bytes: input.length, medianMs: times[Math.floor(times.length / 2)]!, outBytes };
    }
    return results;
  } finally {
    await worker.stop();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('images.ts')) {
  for (const [format, r] of Object.entries(await imageJobTimes())) {
    console.log(
      `image job ${format}: ${(r.bytes / 1e6).toFixed(2)} MB → ${(r.outBytes / 1e6).toFixed(2)} MB, median ${r.medianMs.toFixed(0)} ms (10 runs)`,
    );
  }
}
