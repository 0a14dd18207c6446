import { imageUploadsMachine } from '../machines/imageUploads';
import type { MachineModel } from './harness';

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
};
