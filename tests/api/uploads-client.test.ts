import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { imageJobMachine } from '../../machines/imageJob';
import { createApi } from '../../src/services/api';
import { uploadService } from '../../src/services/uploads';
import { register, useTestApp } from './support/harness';
import { withSeaweed } from './support/seaweed';

/**
 * The imageJob machine with the browser's upload service against the real API: an optimized upload
 * (job polled every second) and a plain one: an optimized upload is tried first, and a failed one
 * falls back to a plain upload. With the local store and with an S3 bucket (SeaweedFS), where the
 * service PUTs the file straight to the bucket.
 */
const seaweed = withSeaweed();

describe.each(['local', 's3'] as const)('uploads from the browser to the %s store', (kind) => {
  const t = useTestApp('pglite', async () =>
    kind === 's3' ? { storage: { kind: 's3', s3: await seaweed.bucket() } } : {},
  );

  async function machineFor(token: string) {
    const api = createApi({
      baseUrl: 'http://vitrine.test/api',
      getToken: () => token,
      onUnauthorized: () => {},
      fetch: (input, init) => t.app.fetch(new Request(input, init)) as Promise<Response>,
    });
    const uploads = uploadService(api);
    return imageJobMachine.provide({
      actors: {
        startJob: fromPromise(({ input }) => uploads.startJob(input)),
        checkJob: fromPromise(({ input }) => uploads.checkJob(input)),
        plainUpload: fromPromise(({ input }) => uploads.plainUpload(input)),
      },
    });
  }
  const png = async () =>
    new File(
      [
        new Uint8Array(
          await sharp({ create: { width: 400, height: 400, channels: 3, background: '#0a9396' } })
            .png()
            .toBuffer(),
        ),
      ],
      'logo.png',
      { type: 'image/png' },
    );

  it('optimizes through a job, then serves the result', async () => {
    const me = await register(t);
    const actor = createActor(await machineFor(me.authToken), {
      input: { file: await png(), assetKind: 'storefrontLogo', optimize: true },
    }).start();
    const out = await toPromise(actor);
    expect(out).toMatchObject({
      optimized: true,
      url: expect.stringMatching(`^/media/uploads/${me.id}/storefrontLogo-`),
    });
    expect((await t.app.request(out.url)).status).toBe(200);
    expect(t.storage.kind).toBe(kind);
    expect(await t.storage.exists(out.url.replace('/media/', ''))).toBe(true);
  });

  it('uploads plainly when not optimizing, and fails with the file rule it broke', async () => {
    const me = await register(t);
    const plain = await toPromise(
      createActor(await machineFor(me.authToken), {
        input: { file: await png(), assetKind: 'storefrontBanner', optimize: false },
      }).start(),
    );
    expect(plain.optimized).toBe(false);
    expect((await t.app.request(plain.url)).status).toBe(200);

    const tiny = new File(
      [
        new Uint8Array(
          await sharp({ create: { width: 50, height: 50, channels: 3, background: '#000' } })
            .png()
            .toBuffer(),
        ),
      ],
      'tiny.png',
      { type: 'image/png' },
    );
    const actor = createActor(await machineFor(me.authToken), {
      input: { file: tiny, assetKind: 'storefrontLogo', optimize: false },
    }).start();
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches('failed') && resolve()));
    expect(actor.getSnapshot().context.error).toMatchObject({ code: 'IMAGE_MIN_WIDTH' });
  });
});
