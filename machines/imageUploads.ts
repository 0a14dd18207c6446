import { assign, setup } from 'xstate';
import type { AssetKind } from '#domain/assets';
import type { ApiErrorBody } from '#domain/errors';
import { type ImageJobFile, imageJobMachine } from './imageJob';

/**
 * The images of a form, uploaded one after the other before the form is saved: each one is an
 * imageJob (the optimization job first when asked, a plain upload when the job fails or takes too
 * long). The machine ends with the URL of every uploaded image by its field; when an image cannot
 * be uploaded at all it ends at once with that error, about that field, beside the URLs of the
 * images uploaded before it (the form shows the error there and the person may save again). The
 * storefront wizard and Dashboard → Account (logo and banner), the product form (preview and
 * asset) and the avatar invoke it.
 */
export interface ImageUpload {
  /** The form's field the image fills ("logo", "banner", "previewImageUrl", …). */
  field: string;
  file: ImageJobFile;
  assetKind: AssetKind;
  /** Try the optimization job before the plain upload. */
  optimize: boolean;
}
export interface ImageUploadsInput {
  uploads: ImageUpload[];
}
export interface ImageUploadsContext {
  /** The images still to upload, the current one first. */
  queue: ImageUpload[];
  urls: Record<string, string>;
  error: ApiErrorBody | null;
}
/** The URL of every image uploaded by its field, and the error of the image that failed (its field set). */
export interface ImageUploadsOutput {
  urls: Record<string, string>;
  error: ApiErrorBody | null;
}

/** The imageJob's snapshot as its parent hears of it: a failed upload holds an error. */
type JobSnapshot = { context?: { error?: ApiErrorBody | null } };
const jobError = (snapshot: unknown) => (snapshot as JobSnapshot).context?.error ?? null;

export const imageUploadsMachine = setup({
  types: {
    context: {} as ImageUploadsContext,
    input: {} as ImageUploadsInput,
    output: {} as ImageUploadsOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** One image (its optimization job, else a plain upload). */
    imageJob: imageJobMachine,
  },
  guards: {
    allUploaded: ({ context }) => context.queue.length === 0,
    jobFailed: (_, { snapshot }: { snapshot: unknown }) => jobError(snapshot) !== null,
  },
}).createMachine({
  id: 'imageUploads',
  context: ({ input }) => ({ queue: input.uploads, urls: {}, error: null }),
  initial: 'next',
  output: ({ context }) => ({ urls: context.urls, error: context.error }),
  states: {
    next: {
      always: [{ guard: 'allUploaded', target: 'done' }, { target: 'uploading' }],
    },
    uploading: {
      tags: ['busy'],
      invoke: {
        id: 'imageJob',
        src: 'imageJob',
        input: ({ context }) => ({
          file: context.queue[0]!.file,
          assetKind: context.queue[0]!.assetKind,
          optimize: context.queue[0]!.optimize,
        }),
        onDone: {
          target: 'next',
          actions: assign(({ context, event }) => ({
            urls: { ...context.urls, [context.queue[0]!.field]: event.output.url },
            queue: context.queue.slice(1),
          })),
        },
        // The job waits for a retry after a failed plain upload: the form is where the person retries.
        onSnapshot: {
          guard: { type: 'jobFailed', params: ({ event }) => ({ snapshot: event.snapshot }) },
          target: 'failed',
          actions: assign({
            error: ({ context, event }) => ({ ...jobError(event.snapshot)!, field: context.queue[0]!.field }),
          }),
        },
      },
    },
    failed: { type: 'final' },
    done: { type: 'final' },
  },
});
