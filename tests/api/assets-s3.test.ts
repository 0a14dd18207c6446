import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { databases, type Json, register, type TestApi, useTestApp } from './support/harness';
import { withSeaweed } from './support/seaweed';
import { flatImage, storeUpload, uploadImage } from './support/uploads';

/**
 * Uploads with an S3 store (a bucket on SeaweedFS, started by the test): the browser PUTs the file
 * straight to the bucket with a presigned URL that carries its type and size, the API checks it
 * when the upload is confirmed or its image job runs (reading it back from the bucket), and /media
 * streams stored files from the bucket, or redirects to MEDIA_PUBLIC_URL.
 */
const seaweed = withSeaweed();
const s3 = async () => ({ storage: { kind: 's3' as const, s3: await seaweed.bucket() } });

const noise = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();

/** A grant for the bytes (their size signed in), as the browser asks for one. */
async function grantFor(t: TestApi, token: string, bytes: Buffer, query: Record<string, string> = {}) {
  const res = await t.request(
    'GET',
    `/api/assets/upload-url?${new URLSearchParams({
      mimeType: 'image/png',
      objectKey: `f-${randomBytes(6).toString('hex')}.png`,
      assetKind: 'storefrontLogo',
      size: String(bytes.length),
      ...query,
    })}`,
    { token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { url: string; publicUrl: string; confirmUrl: string; headers: Record<string, string> };
}
const putToBucket = (grant: { url: string; headers: Record<string, string> }, bytes: Buffer) =>
  fetch(grant.url, { method: 'PUT', headers: grant.headers, body: new Uint8Array(bytes) });
const staged = (publicUrl: string) => publicUrl.replace('/media/uploads/', 'incoming/');
const stored = (publicUrl: string) => publicUrl.replace('/media/', '');

describe.each(databases)('uploads to an S3 bucket on %s', (database) => {
  const t = useTestApp(database, s3);
  const confirm = async (url: string) => {
    const res = await t.app.request(url, { method: 'POST' });
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('grants a presigned PUT to the bucket, and stores the file once it is confirmed and checked', async () => {
    const me = await register(t);
    const bytes = await flatImage(300, 300);
    const grant = await grantFor(t, me.authToken, bytes, { objectKey: 'logo-1.png' });
    expect(grant.publicUrl).toBe(`/media/uploads/${me.id}/logo-1.png`);
    expect(grant.confirmUrl).toMatch(/^\/api\/assets\/uploads\/[\w-]+\.[\w-]+$/);
    expect(grant.headers).toEqual({ 'Content-Type': 'image/png' });
    const url = new URL(grant.url);
    expect(url.origin).toBe(seaweed.endpoint);
    expect(url.pathname).toMatch(new RegExp(`^/test-[0-9a-f]+/incoming/${me.id}/logo-1\\.png$`));
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBe(15 * 60);

    expect((await putToBucket(grant, bytes)).status).toBe(200);
    // Waiting for its checks, the file is served by no one.
    expect((await t.request('GET', grant.publicUrl)).status).toBe(404);
    expect((await t.request('GET', `/media/${staged(grant.publicUrl)}`)).status).toBe(404);
    expect(await confirm(grant.confirmUrl)).toEqual({ status: 200, body: { url: grant.publicUrl } });
    expect(await t.storage.exists(staged(grant.publicUrl))).toBe(false);

    // Streamed from the bucket, whole or in ranges, cached for a year.
    const served = await t.app.request(grant.publicUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await t.app.request(grant.publicUrl, { headers: { range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 8))).toBe(true);
    const copy = await t.app.request(`${grant.publicUrl}.w320.webp`);
    expect(copy.status).toBe(200);
    expect(await sharp(Buffer.from(await copy.arrayBuffer())).metadata()).toMatchObject({
      format: 'webp',
      width: 300,
    });

    // A confirmation sent twice answers the same; a second file under the name is refused and dropped.
    expect(await confirm(grant.confirmUrl)).toEqual({ status: 200, body: { url: grant.publicUrl } });
    const other = await flatImage(400, 400);
    const again = await grantFor(t, me.authToken, other, { objectKey: 'logo-1.png' });
    expect((await putToBucket(again, other)).status).toBe(200);
    expect(await confirm(again.confirmUrl)).toMatchObject({ status: 409, body: { code: 'FILE_EXISTS' } });
    expect(await t.storage.exists(staged(grant.publicUrl))).toBe(false);
    expect((await t.storage.read(stored(grant.publicUrl)))?.equals(bytes)).toBe(true);
  });

  it('checks the file read back from the bucket: one that breaks its kind’s rules is refused and dropped', async () => {
    const me = await register(t);
    const key = `again-${randomBytes(4).toString('hex')}.png`;
    const tiny = await flatImage(50, 50);
    const small = await grantFor(t, me.authToken, tiny, { objectKey: key });
    expect((await putToBucket(small, tiny)).status).toBe(200);
    expect(await confirm(small.confirmUrl)).toMatchObject({
      status: 400,
      body: { code: 'IMAGE_MIN_WIDTH', field: 'file', params: { width: 50, minWidth: 100 } },
    });
    expect(await t.storage.exists(staged(small.publicUrl))).toBe(false);
    expect((await t.request('GET', small.publicUrl)).status).toBe(404);
    // The store takes any bytes of the signed type and size: the API reads what they are.
    const jpeg = await flatImage(300, 300, 'jpeg');
    const lying = await grantFor(t, me.authToken, jpeg, { objectKey: key });
    expect((await putToBucket(lying, jpeg)).status).toBe(200);
    expect(await confirm(lying.confirmUrl)).toMatchObject({ status: 400, body: { code: 'FILE_TYPE' } });
    // Nothing was stored under the name, so it can be used again.
    const good = await flatImage(300, 300);
    const fine = await grantFor(t, me.authToken, good, { objectKey: key });
    expect((await storeUpload(t, fine, good)).status).toBe(200);
    // Nothing uploaded: nothing to confirm. A link that is not ours confirms nothing either.
    const none = await grantFor(t, me.authToken, good);
    expect(await confirm(none.confirmUrl)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const tampered = none.confirmUrl.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect(await confirm(tampered)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
  });

  it('signs the file’s size into the URL: needed, and within its kind’s limit', async () => {
    const me = await register(t);
    const ask = (query: Record<string, string>) =>
      t.request(
        'GET',
        `/api/assets/upload-url?${new URLSearchParams({ mimeType: 'image/png', objectKey: 'a.png', assetKind: 'storefrontLogo', ...query })}`,
        { token: me.authToken },
      );
    expect((await ask({})).body).toMatchObject({ code: 'INVALID_VALUE', field: 'size' });
    expect((await ask({ size: 'big' })).body).toMatchObject({ code: 'INVALID_VALUE', field: 'size' });
    expect((await ask({ size: '1000001' })).body).toMatchObject({
      code: 'FILE_SIZE_BIG',
      field: 'size',
      message: 'This file is 1.1 MB: the limit is 1 MB.',
    });
    expect((await ask({ size: '1000000' })).status).toBe(200);
  });

  it('optimizes a file PUT to the bucket in an image job, which reads it from there and stores the result', async () => {
    const me = await register(t);
    const original = await noise(300, 200);
    const grant = await grantFor(t, me.authToken, original, { assetKind: 'storefrontBanner' });
    const job = async () => {
      const form = new FormData();
      form.set('uploadUrl', grant.confirmUrl);
      form.set('quality', '85');
      const res = await t.app.request('/api/image-jobs', {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${me.authToken}` },
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    // Nothing in the bucket yet: there is no image to optimize.
    expect(await job()).toMatchObject({ status: 400, body: { code: 'FILE_TYPE', field: 'file' } });
    expect((await putToBucket(grant, original)).status).toBe(200);
    const started = await job();
    expect(started.status).toBe(201);
    let answer: Json = { status: 'pending' };
    for (let i = 0; i < 150 && answer.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      answer = (await t.request('GET', `/api/image-jobs/${started.body.jobId}`, { token: me.authToken }))
        .body;
    }
    expect(answer).toMatchObject({ status: 'complete', url: grant.publicUrl });
    const optimized = await t.storage.read(stored(grant.publicUrl));
    expect(optimized!.length).toBeLessThan(original.length);
    expect(await sharp(optimized!).metadata()).toMatchObject({ format: 'png', width: 300, height: 200 });
    expect(await t.storage.exists(staged(grant.publicUrl))).toBe(false);
    expect(await t.storage.exists(`${stored(grant.publicUrl)}.w320.webp`)).toBe(true);
  });

  it('takes an avatar stored in the bucket as the user’s own, and no one else’s', async () => {
    const me = await register(t);
    const other = await register(t);
    const avatar = await uploadImage(t, me.authToken, 'userAvatar', { width: 300, height: 300 });
    const mine = await t.request('PATCH', '/api/users/me', {
      token: me.authToken,
      body: { avatarUrl: avatar },
    });
    expect(mine.body.avatarUrl).toBe(avatar);
    const theirs = await t.request('PATCH', '/api/users/me', {
      token: other.authToken,
      body: { avatarUrl: avatar },
    });
    expect(theirs.status).toBe(400);
    expect(theirs.body).toMatchObject({ field: 'avatarUrl' });
  });
});

describe.each(databases)('media behind a CDN (MEDIA_PUBLIC_URL) on %s', (database) => {
  const cdn = 'https://cdn.vitrine.example/media';
  const root = mkdtempSync(join(tmpdir(), 'vitrine-dist-'));
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Vitrine</title>');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const t = useTestApp(
    database,
    async () => ({ ...(await s3()), mediaPublicUrl: cdn, production: true, nodeEnv: 'production' }),
    { spaDir: root },
  );

  it('redirects /media to the CDN, makes a missing copy first, and lets pages show images from there', async () => {
    const me = await register(t);
    const url = await uploadImage(t, me.authToken, 'storefrontLogo', { width: 300, height: 300 });
    const key = stored(url);
    const answer = await t.app.request(url);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`${cdn}/${key}`);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=86400');
    // An image stored without copies (as by an older version) gets the one asked for before the redirect.
    await t.storage.put('older/art.png', await flatImage(800, 400));
    const copy = await t.app.request('/media/older/art.png.w640.webp');
    expect(copy.status).toBe(302);
    expect(copy.headers.get('location')).toBe(`${cdn}/older/art.png.w640.webp`);
    expect(await sharp((await t.storage.read('older/art.png.w640.webp'))!).metadata()).toMatchObject({
      format: 'webp',
      width: 640,
    });
    expect((await t.app.request(`/media/incoming/${me.id}/x.png`)).status).toBe(404);
    const page = await t.app.request('/');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("img-src 'self' data: blob: https://cdn.vitrine.example");
    expect(policy).toContain("media-src 'self' blob: https://cdn.vitrine.example");
  });
});
