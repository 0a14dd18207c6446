import { assign, fromPromise, setup } from 'xstate';
import { timings } from '#domain/constants';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import type { CheckJobOutput, ImageJobFile } from '#domain/ports/uploads';

export type { CheckJobOutput, ImageJobFile, ImageJobStatus } from '#domain/ports/uploads';

/**
 * One image upload (SPEC "Storefront creation: logo and banner uploaded (optimized upload first,
 * falling back to plain upload on failure)"; "Image optimization job: start a job, poll every second,
 * 10 s timeout").
 *
 * With `optimize`, an optimization job is started and polled every `pollInterval` until it completes
 * (the machine ends with the optimized URL). A failed job, an error of either call or the
 * `jobTimeout` over the whole optimizing phase falls back to a plain upload. A failed plain upload
 * waits in `failed` for `image.retry`, which starts over (optimized first again when asked).
 */
export interface ImageJobInput {
  /** The chosen file (a browser `File` fits). */
  file: ImageJobFile;
  /** What the image is for (e.g. "logo", "banner"). */
  assetKind: string;
  /** Try the optimization job before the plain upload. */
  optimize: boolean;
}
export interface ImageJobContext extends ImageJobInput {
  jobId: string | null;
  url: string | null;
  /** The URL came from a completed optimization job. */
  optimized: boolean;
  error: ApiErrorBody | null;
}
export type ImageJobEvent = { type: 'image.retry' };
export interface ImageJobOutput {
  url: string;
  optimized: boolean;
}

export const imageJobMachine = setup({
  types: {
    context: {} as ImageJobContext,
    events: {} as ImageJobEvent,
    input: {} as ImageJobInput,
    output: {} as ImageJobOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** Starts an optimization job for the file. */
    startJob: fromPromise<{ jobId: string }, { file: ImageJobFile; assetKind: string }>(async () => {
      throw new Error('startJob not provided');
    }),
    /** Reads the job's status once. */
    checkJob: fromPromise<CheckJobOutput, { jobId: string }>(async () => {
      throw new Error('checkJob not provided');
    }),
    /** Uploads the file as is. */
    plainUpload: fromPromise<{ url: string }, { file: ImageJobFile; assetKind: string }>(async () => {
      throw new Error('plainUpload not provided');
    }),
  },
  guards: {
    optimize: ({ context }) => context.optimize,
    jobComplete: (_, output: CheckJobOutput) =>
      output.status === 'complete' && typeof output.url === 'string',
    jobPending: (_, output: CheckJobOutput) => output.status === 'pending',
  },
  delays: {
    pollInterval: timings.imageJobPollMs,
    jobTimeout: timings.imageJobTimeoutMs,
  },
}).createMachine({
  id: 'imageJob',
  context: ({ input }) => ({
    file: input.file,
    assetKind: input.assetKind,
    optimize: input.optimize,
    jobId: null,
    url: null,
    optimized: false,
    error: null,
  }),
  output: ({ context }) => ({ url: context.url!, optimized: context.optimized }),
  initial: 'deciding',
  states: {
    deciding: {
      always: [{ guard: 'optimize', target: 'optimizing' }, { target: 'fallback' }],
    },
    optimizing: {
      tags: ['busy'],
      after: { jobTimeout: 'fallback' },
      initial: 'starting',
      states: {
        starting: {
          invoke: {
            id: 'startJob',
            src: 'startJob',
            input: ({ context }) => ({ file: context.file, assetKind: context.assetKind }),
            onDone: { target: 'polling', actions: assign({ jobId: ({ event }) => event.output.jobId }) },
            onError: '#imageJob.fallback',
          },
        },
        polling: {
          initial: 'waiting',
          states: {
            waiting: {
              after: { pollInterval: 'checking' },
            },
            checking: {
              invoke: {
                id: 'checkJob',
                src: 'checkJob',
                input: ({ context }) => ({ jobId: context.jobId! }),
                onDone: [
                  {
                    guard: { type: 'jobComplete', params: ({ event }) => event.output },
                    target: '#imageJob.done',
                    actions: assign({ url: ({ event }) => event.output.url!, optimized: true }),
                  },
                  {
                    guard: { type: 'jobPending', params: ({ event }) => event.output },
                    target: 'waiting',
                  },
                  { target: '#imageJob.fallback' },
                ],
                onError: '#imageJob.fallback',
              },
            },
          },
        },
      },
    },
    fallback: {
      tags: ['busy'],
      invoke: {
        id: 'plainUpload',
        src: 'plainUpload',
        input: ({ context }) => ({ file: context.file, assetKind: context.assetKind }),
        onDone: {
          target: 'done',
          actions: assign({ url: ({ event }) => event.output.url, optimized: false }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    failed: {
      on: { 'image.retry': { target: 'deciding', actions: assign({ error: null, jobId: null }) } },
    },
    done: { type: 'final' },
  },
});
