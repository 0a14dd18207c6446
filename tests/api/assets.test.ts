import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { databases, type Json, register, useTestApp } from './support/harness';

/** Uploads into the local object store and the image-optimization jobs (SPEC §5, §7, §9). */
const noise = (width: number, height: number, format: 'png' | 'jpeg') => {
  const raw = randomBytes(width * height * 3);
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  return (format === 'png' ? image.png() : image.jpeg({ quality: 95 })).toBuffer();
};
const flat = (width: number, height: number, format: 'png' | 'jpeg') => {
  const image = sharp({ create: { width, height, channels: 3, background: '#5b3df5' } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
};

describe.each(databases)('assets on %s', (database) => {
  const t = useTestApp(database);

  async function uploadUrl(token: string, query: Record<string, string>) {
    return t.request('GET', `/api/assets/upload-url?${new URLSearchParams(query)}`, { token });
  }
  const put = (url: string, bytes: Buffer) =>
    t.app.request(url, { method: 'PUT', body: new Uint8Array(bytes) });

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

  it('checks the bytes, not the name: type, size and dimensions of the kind (SPEC §5)', async () => {
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
    expect(await code(await grant('storefrontLogo'), await flat(99, 300, 'png'))).toMatchObject({
      code: 'IMAGE_MIN_WIDTH',
    });
    expect(await code(await grant('storefrontBanner'), await flat(600, 99, 'png'))).toMatchObject({
      code: 'IMAGE_MIN_HEIGHT',
    });
    expect(await code(await grant('storefrontLogo'), await noise(700, 700, 'png'))).toMatchObject({
      code: 'FILE_SIZE_BIG',
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
});
