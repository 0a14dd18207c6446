import { expect } from 'vitest';
import { imageUploadsMachine } from '../machines/imageUploads';
import { expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof imageUploadsMachine>;
/** The images of the scenario, in order, and how many are uploaded so far. */
const uploads = (o: O) => o.snapshot.context.queue.length + Object.keys(o.snapshot.context.urls).length;

const file = (name: string, type: string) => ({ name, type, size: 2048 });
export const LOGO = {
  field: 'logo',
  file: file('logo.png', 'image/png'),
  assetKind: 'storefrontLogo',
  optimize: true,
} as const;
export const BANNER = {
  field: 'banner',
  file: file('banner.jpg', 'image/jpeg'),
  assetKind: 'storefrontBanner',
  optimize: false,
} as const;
export const uploadedUrl = (name: string) => `/media/uploads/00000000-0000-4000-8000-000000000001/${name}`;

/**
 * Images uploaded in order: two (each done or failed), one, or none. A failed imageJob is heard
 * from its snapshot (it holds the plain upload's error and waits for a retry nobody sends).
 */
export const imageUploadsModel: MachineModel<typeof imageUploadsMachine> = {
  machine: imageUploadsMachine,
  fakes: ['imageJob'],
  scenarios: [
    { name: 'logo and banner', input: { uploads: [LOGO, BANNER] } },
    { name: 'a banner', input: { uploads: [BANNER] } },
    { name: 'no images', input: { uploads: [] } },
  ],
  events: (s) => {
    const current = s.context.queue[0];
    return [
      {
        type: 'xstate.done.actor.imageJob',
        output: { url: uploadedUrl(current?.file.name ?? ''), optimized: true },
      },
      // The job's snapshot while it runs (no error), and once its plain upload failed.
      { type: 'xstate.snapshot.imageJob', snapshot: { context: { error: null } } },
      {
        type: 'xstate.snapshot.imageJob',
        snapshot: { context: { error: { code: 'FILE_SIZE_BIG', message: 'too big' } } },
      },
    ];
  },
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.queue.length,
      s.context.urls,
      s.context.error?.field ?? null,
      s.status,
    ]),
  expect: {
    // One image at a time, in order.
    uploading: (o) => {
      const next = o.snapshot.context.queue[0]!;
      expectWorking(o, 'imageJob', { file: next.file, assetKind: next.assetKind, optimize: next.optimize });
      const done = Object.keys(o.snapshot.context.urls);
      expect([LOGO, BANNER].map((u) => u.field).filter((f) => done.includes(f))).toEqual(done);
      expect(uploads(o)).toBeGreaterThan(0);
    },
    // Ends with every URL by field,
    done: (o) => {
      const urls = o.snapshot.output!.urls as Record<string, string>;
      expect(o.snapshot.output!.error).toBeNull();
      for (const [field, url] of Object.entries(urls))
        expect(url).toBe(uploadedUrl(field === 'logo' ? 'logo.png' : 'banner.jpg'));
      expect(o.calls.length).toBe(Object.keys(urls).length);
    },
    // or stops at the first image that fails for good, naming its field, with the URLs so far.
    failed: (o) => {
      expect(o.event.type).toBe('xstate.snapshot.imageJob');
      const output = o.snapshot.output!;
      expect(output.error).toMatchObject({ code: 'FILE_SIZE_BIG', field: o.before.context.queue[0]!.field });
      expect(Object.keys(output.urls)).toHaveLength(o.calls.length - 1);
    },
  },
};
