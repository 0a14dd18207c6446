import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { timings } from '#domain/constants';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import type { CheckJobOutput, ImageJobFile } from '#domain/ports/uploads';

export type { CheckJobOutput, ImageJobFile, ImageJobStatus } from '#domain/ports/uploads';

/**
 * One image upload: the optimized upload first, the plain upload when it fails. The optimization
 * job is started, then its status is read every second for at most ten seconds.
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
    /** busy while uploading; optimizing while the optimization job runs. */
    tags: {} as 'busy' | 'optimizing',
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
      tags: ['busy', 'optimizing'],
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

/** What an upload's status line shows. */
export interface ImageJobView {
  busy: boolean;
  /** "Optimizing the image…", "Uploading the image…". */
  status: string | null;
  /** The URL once uploaded. */
  url: string | null;
  error: string | null;
  canRetry: boolean;
  retry: () => void;
}

export function connectImageJob(
  snapshot: SnapshotFrom<typeof imageJobMachine>,
  send: (event: ImageJobEvent) => void,
): ImageJobView {
  const { url, error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const canRetry = snapshot.can({ type: 'image.retry' });
  return {
    busy,
    status: snapshot.hasTag('optimizing') ? 'Optimizing the image…' : busy ? 'Uploading the image…' : null,
    url: snapshot.status === 'done' ? url : null,
    error: canRetry && error ? errorMessage(error) : null,
    canRetry,
    retry: () => send({ type: 'image.retry' }),
  };
}
