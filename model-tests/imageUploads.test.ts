import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { imageJobMachine } from '../machines/imageJob';
import { imageUploadsMachine } from '../machines/imageUploads';
import { flushCoverage } from './coverage-store';
import { FakeActors, flush, generatePaths, recordMicrosteps, runPath } from './harness';
import { BANNER, imageUploadsModel, LOGO, uploadedUrl } from './imageUploads.model';

describe('image uploads machine paths', () => {
  const paths = generatePaths(imageUploadsModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(3));
  for (const path of paths) it(path.description, () => runPath(imageUploadsModel, path));
  afterAll(() => flushCoverage('machine'));
});

/** The real imageJob machine inside, with its own calls faked. */
function start() {
  const fakes = new FakeActors(['startJob', 'checkJob', 'plainUpload']);
  const imageJob = imageJobMachine.provide({ actors: fakes.implementations() as never });
  const actor = createActor(imageUploadsMachine.provide({ actors: { imageJob } }), {
    input: { uploads: [LOGO, BANNER] },
    inspect: recordMicrosteps,
  }).start();
  return { actor, fakes };
}

describe('image uploads with the imageJob machine', () => {
  it('uploads each image in order and ends with their URLs by field', async () => {
    const { actor, fakes } = start();
    // The logo's optimization job fails to start: its plain upload follows.
    fakes.settle('startJob', { error: { code: 'NETWORK_FAILURE' } });
    await flush();
    fakes.settle('plainUpload', { output: { url: uploadedUrl('logo.png') } });
    await flush();
    fakes.settle('plainUpload', { output: { url: uploadedUrl('banner.jpg') } });
    await flush();
    expect(actor.getSnapshot().output).toEqual({
      urls: { logo: uploadedUrl('logo.png'), banner: uploadedUrl('banner.jpg') },
      error: null,
    });
    expect(fakes.calls.map((c) => [c.name, (c.input as { assetKind: string }).assetKind])).toEqual([
      ['startJob', 'storefrontLogo'],
      ['plainUpload', 'storefrontLogo'],
      ['plainUpload', 'storefrontBanner'],
    ]);
  });

  it('ends with the error of an image whose plain upload failed, about its field', async () => {
    const { actor, fakes } = start();
    fakes.settle('startJob', { error: { code: 'NETWORK_FAILURE' } });
    await flush();
    fakes.settle('plainUpload', {
      error: { status: 400, body: { code: 'FILE_SIZE_BIG', message: 'too big' } },
    });
    await flush();
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({
      urls: {},
      error: expect.objectContaining({ code: 'FILE_SIZE_BIG', field: 'logo' }),
    });
    // The banner was never sent.
    expect(
      fakes.calls.filter((c) => (c.input as { assetKind: string }).assetKind === 'storefrontBanner'),
    ).toEqual([]);
  });

  it('ends at once without images', () => {
    const actor = createActor(
      imageUploadsMachine.provide({ actors: { imageJob: fromPromise(async () => ({})) as never } }),
      {
        input: { uploads: [] },
      },
    ).start();
    expect(actor.getSnapshot().output).toEqual({ urls: {}, error: null });
  });
});
