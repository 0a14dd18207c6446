import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, webpSrcSet } from '#domain/assets';
import { IMAGE_JOB_TTL_MS } from '../../server/images/jobs';
import { mediaDir } from '../../server/media';
import { databases, type Json, register, useTestApp } from './support/harness';

/**
 * Uploads into the local object store (each asset kind's file rules) and the image-optimization jobs
 * (quality 85, polled every second, given up after 10 s).
 */
const noise = (width: number, height: number, format: 'png' | 'jpeg') => {
  const raw = randomBytes(width * height * 3);
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  return (format === 'png' ? image.png() : image.jpeg({ quality: 95 })).toBuffer();
};
const flat = (width: number, height: number, format: 'png' | 'jpeg') => {
  const image = sharp({ create: { width, height, channels: 3, background: '#5b3df5' } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
};

/** A PNG of under 100 bytes whose header declares width × height (its pixel data is a stub). */
const declaredPng = (width: number, height: number) => {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};
const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300" fill="#5b3df5"/></svg>',
);

describe.each(databases)('assets on %s', (database) => {
  const t = useTestApp(database);

  async function uploadUrl(token: string, query: Record<string, string>) {
    return t.request('GET', `/api/assets/upload-url?${new URLSearchParams(query)}`, { token });
  }
  const put = (url: string, bytes: Buffer) =>
    t.app.request(url, { method: 'PUT', body: new Uint8Array(bytes) });
  /** A signed upload URL of a new object key for the kind; the key's extension follows the type. */
  async function grantOf(token: string, assetKind: string, mimeType = 'image/png') {
    const extension = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' }[mimeType];
    const objectKey = `f-${randomBytes(6).toString('hex')}.${extension}`;
    const res = await uploadUrl(token, { mimeType, objectKey, assetKind });
    expect(res.status).toBe(200);
    return res.body as { url: string; publicUrl: string };
  }
  /** Starts an image job for the bytes to the upload URL (as the browser's upload service does). */
  async function startJob(token: string, url: string, bytes: Buffer, type = 'image/png') {
    const form = new FormData();
    form.set('file', new File([new Uint8Array(bytes)], 'image', { type }));
    form.set('uploadUrl', url);
    form.set('quality', '85');
    const res = await t.app.request('/api/image-jobs', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
  }
  /** Polls a job until it is no longer pending. */
  async function finished(token: string, jobId: string) {
    let job: Json = { status: 'pending' };
    for (let i = 0; i < 150 && job.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await t.request('GET', `/api/image-jobs/${jobId}`, { token })).body;
    }
    return job;
  }
  const gif = () =>
    sharp({ create: { width: 300, height: 300, channels: 3, background: '#5b3df5' } })
      .gif()
      .toBuffer();

  it('issues a signed upload URL, stores a valid image and serves it from /media', async () => {
    const me = await register(t);
    const res = await uploadUrl(me.authToken, {
      mimeType: 'image/png',
      objectKey: 'logo-1.png',
      assetKind: 'storefrontLogo',
    });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^\/api\/assets\/uploads\/[\w-]+\.[\w-]+$/);
    expect(res.body.publicUrl).toBe(`/media/uploads/${me.id}/logo-1.png`);
    const stored = await put(res.body.url, await flat(300, 300, 'png'));
    expect(stored.status).toBe(200);
    expect(await stored.json()).toEqual({ url: res.body.publicUrl });
    const served = await t.app.request(res.body.publicUrl);
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(300);
    // A stored file never changes: the same name again is refused.
    const again = await put(res.body.url, await flat(400, 400, 'png'));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'FILE_EXISTS', field: 'file' });
    const still = await t.app.request(res.body.publicUrl);
    expect((await sharp(Buffer.from(await still.arrayBuffer())).metadata()).width).toBe(300);
  });

  it('makes WebP copies of a stored JPEG or PNG at 96, 320, 640, 1000 and 1600 px, never wider than the original', async () => {
    const me = await register(t);
    const { url, publicUrl } = await grantOf(me.authToken, 'blueprintPreviewImage', 'image/jpeg');
    const job = await startJob(me.authToken, url, await flat(1200, 900, 'jpeg'), 'image/jpeg');
    expect(job.status).toBe(201);
    expect(await finished(me.authToken, job.body.jobId as string)).toMatchObject({ status: 'complete' });
    // Made when the job stored the image, before it answered complete.
    const file = join(mediaDir(t.config), publicUrl.replace('/media/', ''));
    for (const width of IMAGE_WIDTHS) expect(existsSync(`${file}.w${width}.webp`)).toBe(true);
    expect(webpSrcSet(publicUrl)).toBe(IMAGE_WIDTHS.map((w) => `${publicUrl}.w${w}.webp ${w}w`).join(', '));
    for (const [width, expected] of [
      [96, 72],
      [320, 240],
      [640, 480],
      [1000, 750],
      [1600, 900],
    ] as const) {
      const copy = await t.app.request(`${publicUrl}.w${width}.webp`);
      expect(copy.status).toBe(200);
      expect(copy.headers.get('content-type')).toBe('image/webp');
      expect(copy.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await copy.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: Math.min(width, 1200), height: expected });
    }
  });

  it('makes a missing copy when it is first asked for, and serves no other width, format or file', async () => {
    // An image stored before copies existed (or by hand) gets its copy on the first request.
    const dir = join(mediaDir(t.config), 'older');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'art.png'), await flat(800, 400, 'png'));
    writeFileSync(join(dir, 'anim.gif'), await gif());
    const copy = await t.app.request('/media/older/art.png.w320.webp');
    expect(copy.status).toBe(200);
    expect(await sharp(Buffer.from(await copy.arrayBuffer())).metadata()).toMatchObject({
      format: 'webp',
      width: 320,
      height: 160,
    });
    expect(existsSync(join(dir, 'art.png.w320.webp'))).toBe(true);
    for (const path of [
      '/media/older/art.png.w500.webp',
      '/media/older/anim.gif.w320.webp',
      '/media/older/missing.png.w320.webp',
      '/media/older/..%2fart.png.w320.webp',
    ]) {
      expect((await t.app.request(path)).status, path).toBe(404);
    }
    expect(webpSrcSet('/media/older/anim.gif')).toBeNull();
    expect(webpSrcSet('https://elsewhere.example/art.png')).toBeNull();
  });

  it('checks the bytes, not the name: type, size and dimensions of the kind', async () => {
    const me = await register(t);
    const grant = async (
      assetKind: string,
      mimeType = 'image/png',
      objectKey = `f-${Math.random().toString(36).slice(2)}.png`,
    ) => (await uploadUrl(me.authToken, { mimeType, objectKey, assetKind })).body.url as string;
    const code = async (url: string, bytes: Buffer) => (await (await put(url, bytes)).json()) as Json;
    expect(await code(await grant('storefrontLogo'), await flat(300, 300, 'jpeg'))).toMatchObject({
      code: 'FILE_TYPE',
      field: 'file',
    });
    expect(await code(await grant('storefrontLogo'), Buffer.from('not an image'))).toMatchObject({
      code: 'FILE_TYPE',
    });
    // The message names the rule and the image's own size (the browser words it the same way).
    expect(await code(await grant('storefrontLogo'), await flat(99, 300, 'png'))).toMatchObject({
      code: 'IMAGE_MIN_WIDTH',
      message: 'This image is 99 × 300 pixels: it must be at least 100 × 100.',
      params: { width: 99, height: 300, minWidth: 100, minHeight: 100 },
    });
    expect(await code(await grant('storefrontBanner'), await flat(600, 99, 'png'))).toMatchObject({
      code: 'IMAGE_MIN_HEIGHT',
    });
    expect(await code(await grant('storefrontLogo'), await noise(700, 700, 'png'))).toMatchObject({
      code: 'FILE_SIZE_BIG',
      message: expect.stringMatching(/^This file is [\d.]+ MB: the limit is 1 MB\.$/),
    });
    expect(await code(await grant('blueprintAsset'), await flat(8001, 200, 'png'))).toMatchObject({
      code: 'IMAGE_MAX_WIDTH',
    });
    // A kind that takes no GIF refuses to issue a URL for one.
    const gif = await uploadUrl(me.authToken, {
      mimeType: 'image/gif',
      objectKey: 'a.gif',
      assetKind: 'storefrontLogo',
    });
    expect(gif.body).toMatchObject({ code: 'FILE_TYPE', field: 'mimeType' });
    const badKey = await uploadUrl(me.authToken, {
      mimeType: 'image/png',
      objectKey: '../x.png',
      assetKind: 'storefrontLogo',
    });
    expect(badKey.body).toMatchObject({ code: 'INVALID_VALUE', field: 'objectKey' });
    expect(
      (await uploadUrl('', { mimeType: 'image/png', objectKey: 'a.png', assetKind: 'storefrontLogo' }))
        .status,
    ).toBe(401);
  });

  it('takes only a square avatar (IMAGE_ASPECT), and saves a square one on the account', async () => {
    const me = await register(t);
    const wide = await grantOf(me.authToken, 'userAvatar', 'image/png');
    const refused = await put(wide.url, await flat(400, 300, 'png'));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'IMAGE_ASPECT' });
    const square = await grantOf(me.authToken, 'userAvatar', 'image/png');
    expect((await put(square.url, await flat(300, 300, 'png'))).status).toBe(200);
    const saved = await t.request('PATCH', '/api/users/me', {
      token: me.authToken,
      body: { avatarUrl: square.publicUrl },
    });
    expect(saved.body.avatarUrl).toBe(square.publicUrl);
    const removed = await t.request('PATCH', '/api/users/me', {
      token: me.authToken,
      body: { avatarUrl: null },
    });
    expect(removed.body.avatarUrl).toBeNull();
  });

  it('refuses a tampered or expired upload URL', async () => {
    const me = await register(t);
    const { url } = (
      await uploadUrl(me.authToken, {
        mimeType: 'image/png',
        objectKey: 'x.png',
        assetKind: 'storefrontLogo',
      })
    ).body;
    const tampered = url.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
    expect((await put(tampered, await flat(300, 300, 'png'))).status).toBe(403);
    t.clock.advance(16 * 60_000);
    expect((await put(url, await flat(300, 300, 'png'))).status).toBe(403);
  });

  it('optimizes an image in a job the owner polls: smaller, same size in pixels, stored at the upload URL', async () => {
    const me = await register(t);
    const other = await register(t);
    const { url, publicUrl } = (
      await uploadUrl(me.authToken, {
        mimeType: 'image/png',
        objectKey: 'banner.png',
        assetKind: 'storefrontBanner',
      })
    ).body;
    const original = await noise(600, 200, 'png');
    const form = new FormData();
    form.set('file', new File([new Uint8Array(original)], 'banner.png', { type: 'image/png' }));
    form.set('uploadUrl', url);
    form.set('inputFormat', 'png');
    form.set('outputFormat', 'png');
    form.set('optimizeAlgo', 'pngquant');
    form.set('quality', '85');
    const started = await t.app.request('/api/image-jobs', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${me.authToken}` },
    });
    expect(started.status).toBe(201);
    const { jobId } = (await started.json()) as { jobId: string };
    let job: Json = { status: 'pending' };
    for (let i = 0; i < 50 && job.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await t.request('GET', `/api/image-jobs/${jobId}`, { token: me.authToken })).body;
    }
    expect(job).toMatchObject({ jobId, status: 'complete', url: publicUrl });
    const optimized = Buffer.from(await (await t.app.request(publicUrl)).arrayBuffer());
    expect(optimized.length).toBeLessThan(original.length);
    expect(await sharp(optimized).metadata()).toMatchObject({ format: 'png', width: 600, height: 200 });
    expect((await t.request('GET', `/api/image-jobs/${jobId}`, { token: other.authToken })).status).toBe(404);
    const noFile = await t.app.request('/api/image-jobs', {
      method: 'POST',
      body: new FormData(),
      headers: { authorization: `Bearer ${me.authToken}` },
    });
    expect(noFile.status).toBe(400);
  });

  it('checks an image job’s header against the kind before decoding: a tiny PNG declaring 12000×12000 is refused', async () => {
    const me = await register(t);
    const { url, publicUrl } = await grantOf(me.authToken, 'storefrontLogo');
    const bomb = declaredPng(12000, 12000);
    expect(bomb.length).toBeLessThan(100);
    const refused = await startJob(me.authToken, url, bomb);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'IMAGE_MAX_WIDTH', field: 'file' });
    expect(refused.body.jobId).toBeUndefined();
    const tall = await startJob(me.authToken, url, declaredPng(300, 12000));
    expect(tall).toMatchObject({ status: 400, body: { code: 'IMAGE_MAX_HEIGHT', field: 'file' } });
    // The other rules of the kind hold for the job's file too (logo: at least 100×100, at most 1 MB).
    expect((await startJob(me.authToken, url, await flat(50, 300, 'png'))).body).toMatchObject({
      code: 'IMAGE_MIN_WIDTH',
    });
    expect((await startJob(me.authToken, url, await flat(300, 50, 'png'))).body).toMatchObject({
      code: 'IMAGE_MIN_HEIGHT',
    });
    expect((await startJob(me.authToken, url, await noise(700, 700, 'png'))).body).toMatchObject({
      code: 'FILE_SIZE_BIG',
    });
    // The plain upload answers the same, and nothing was stored: the upload URL is still unused.
    expect(await (await put(url, bomb)).json()).toMatchObject({ code: 'IMAGE_MAX_WIDTH', field: 'file' });
    expect((await t.request('GET', publicUrl)).status).toBe(404);
    expect((await put(url, await flat(300, 300, 'png'))).status).toBe(200);
  });

  it('an image job takes only the raster format of its upload URL: an SVG (or another format) is FILE_TYPE', async () => {
    const me = await register(t);
    const png = await grantOf(me.authToken, 'blueprintAsset');
    for (const [bytes, type] of [
      [svg, 'image/svg+xml'],
      [svg, 'image/png'],
      [await flat(300, 300, 'jpeg'), 'image/png'],
      [await gif(), 'image/png'],
      [Buffer.from('not an image at all'), 'image/png'],
    ] as const) {
      const res = await startJob(me.authToken, png.url, bytes, type);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'FILE_TYPE', field: 'file' });
    }
    const jpeg = await grantOf(me.authToken, 'blueprintAsset', 'image/jpeg');
    expect((await startJob(me.authToken, jpeg.url, await flat(300, 300, 'png'))).body).toMatchObject({
      code: 'FILE_TYPE',
    });
    expect((await put(png.url, svg)).status).toBe(400);
    expect((await t.request('GET', png.publicUrl)).status).toBe(404);
    expect((await t.request('GET', jpeg.publicUrl)).status).toBe(404);
  });

  it('keeps name and content in step: the key’s extension is the mime type’s, and files are served as their real format', async () => {
    const me = await register(t);
    for (const [mimeType, objectKey, assetKind] of [
      ['image/jpeg', 'x.png', 'storefrontLogo'],
      ['image/png', 'x.jpg', 'storefrontLogo'],
      ['image/png', 'x.jpeg', 'storefrontLogo'],
      ['image/gif', 'x.png', 'userAvatar'],
      ['image/jpeg', 'x.gif', 'userAvatar'],
    ] as const) {
      const res = await uploadUrl(me.authToken, { mimeType, objectKey, assetKind });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field: 'objectKey' });
    }
    // JPEG bytes under a PNG name are refused.
    const png = await grantOf(me.authToken, 'storefrontLogo');
    expect(await (await put(png.url, await flat(300, 300, 'jpeg'))).json()).toMatchObject({
      code: 'FILE_TYPE',
      field: 'file',
    });
    // So is a link that names a JPEG under a .png key (as issued before the extension rule).
    const payload = Buffer.from(
      JSON.stringify({
        userId: me.id,
        objectKey: 'legacy.png',
        mimeType: 'image/jpeg',
        assetKind: 'storefrontLogo',
        expires: t.clock.now().getTime() + 60_000,
      }),
    ).toString('base64url');
    const signature = createHmac('sha256', t.config.jwtSecret)
      .update(`upload:${payload}`)
      .digest('base64url');
    const legacy = await put(`/api/assets/uploads/${payload}.${signature}`, await flat(300, 300, 'jpeg'));
    expect(legacy.status).toBe(400);
    expect(await legacy.json()).toMatchObject({ code: 'FILE_TYPE' });
    expect((await t.request('GET', `/media/uploads/${me.id}/legacy.png`)).status).toBe(404);

    // Stored files are served with the content type of their real format.
    const served = async (publicUrl: string) => {
      const res = await t.request('GET', publicUrl);
      expect(res.status).toBe(200);
      return res.headers.get('content-type');
    };
    expect((await put(png.url, await flat(300, 300, 'png'))).status).toBe(200);
    expect(await served(png.publicUrl)).toBe('image/png');
    const jpegKey = await uploadUrl(me.authToken, {
      mimeType: 'image/jpeg',
      objectKey: 'photo.jpeg',
      assetKind: 'storefrontLogo',
    });
    expect(jpegKey.status).toBe(200);
    expect((await put(jpegKey.body.url, await flat(300, 300, 'jpeg'))).status).toBe(200);
    expect(await served(jpegKey.body.publicUrl)).toBe('image/jpeg');
    const avatar = await grantOf(me.authToken, 'userAvatar', 'image/gif');
    expect((await put(avatar.url, await gif())).status).toBe(200);
    expect(await served(avatar.publicUrl)).toBe('image/gif');
    // An optimized JPEG is stored as a JPEG under its .jpg key.
    const job = await grantOf(me.authToken, 'storefrontLogo', 'image/jpeg');
    const started = await startJob(me.authToken, job.url, await noise(300, 300, 'jpeg'), 'image/jpeg');
    expect(started.status).toBe(201);
    expect(await finished(me.authToken, started.body.jobId)).toMatchObject({
      status: 'complete',
      url: job.publicUrl,
    });
    expect(job.publicUrl).toMatch(/\.jpg$/);
    expect(await served(job.publicUrl)).toBe('image/jpeg');
    const stored = Buffer.from(await (await t.app.request(job.publicUrl)).arrayBuffer());
    expect((await sharp(stored).metadata()).format).toBe('jpeg');
  });

  it('allows two running image jobs per user: a third answers 429 RATE_LIMITED with Retry-After', async () => {
    const me = await register(t);
    const other = await register(t);
    // Noise takes about a second to quantize, so the first two jobs are still running for the third.
    const slow = await noise(500, 500, 'png');
    const grants = await Promise.all([1, 2, 3].map(() => grantOf(me.authToken, 'blueprintAsset')));
    const first = await startJob(me.authToken, grants[0]!.url, slow);
    const second = await startJob(me.authToken, grants[1]!.url, slow);
    expect([first.status, second.status]).toEqual([201, 201]);
    const third = await startJob(me.authToken, grants[2]!.url, slow);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The limit is the user's: another user's job starts.
    const theirs = await grantOf(other.authToken, 'blueprintAsset');
    const otherJob = await startJob(other.authToken, theirs.url, await flat(300, 300, 'png'));
    expect(otherJob.status).toBe(201);
    // Once the jobs finished, the refused one can start with the same (still unused) upload URL.
    expect(await finished(me.authToken, first.body.jobId)).toMatchObject({ status: 'complete' });
    expect(await finished(me.authToken, second.body.jobId)).toMatchObject({ status: 'complete' });
    const retried = await startJob(me.authToken, grants[2]!.url, await flat(300, 300, 'png'));
    expect(retried.status).toBe(201);
    expect(await finished(me.authToken, retried.body.jobId)).toMatchObject({
      status: 'complete',
      url: grants[2]!.publicUrl,
    });
    expect(await finished(other.authToken, otherJob.body.jobId)).toMatchObject({ status: 'complete' });
  });

  it('forgets an image job 10 minutes after it finished, and one that never finished 10 minutes after it started', async () => {
    const me = await register(t);
    const done = await grantOf(me.authToken, 'storefrontLogo');
    const started = await startJob(me.authToken, done.url, await flat(300, 300, 'png'));
    expect(started.status).toBe(201);
    const path = `/api/image-jobs/${started.body.jobId}`;
    expect(await finished(me.authToken, started.body.jobId)).toMatchObject({ status: 'complete' });
    t.clock.advance(IMAGE_JOB_TTL_MS - 60_000);
    expect((await t.request('GET', path, { token: me.authToken })).body).toMatchObject({
      status: 'complete',
    });
    t.clock.advance(60_000);
    expect((await t.request('GET', path, { token: me.authToken })).status).toBe(404);

    t.clock.reset();
    const slow = await grantOf(me.authToken, 'blueprintAsset');
    const running = await startJob(me.authToken, slow.url, await noise(500, 500, 'png'));
    expect(running.status).toBe(201);
    const runningPath = `/api/image-jobs/${running.body.jobId}`;
    expect((await t.request('GET', runningPath, { token: me.authToken })).body).toMatchObject({
      status: 'pending',
    });
    t.clock.advance(IMAGE_JOB_TTL_MS);
    expect((await t.request('GET', runningPath, { token: me.authToken })).status).toBe(404);
    // A forgotten job no longer counts against the user's running jobs.
    const next = await grantOf(me.authToken, 'storefrontLogo');
    const again = await startJob(me.authToken, next.url, await flat(300, 300, 'png'));
    expect(again.status).toBe(201);
    expect(await finished(me.authToken, again.body.jobId)).toMatchObject({ status: 'complete' });
  });
});
