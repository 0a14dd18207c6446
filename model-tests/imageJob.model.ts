import { expect } from 'vitest';
import { imageJobMachine } from '../machines/imageJob';
import { after, expectOutput, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof imageJobMachine>;
const sent = (o: O) => ({ file: IMAGE_FILE, assetKind: o.snapshot.context.assetKind });

export const IMAGE_FILE = { name: 'logo.png', type: 'image/png', size: 2048 };
export const OPTIMIZED_URL = 'https://cdn.vitrine.market/optimized/logo.webp';
export const PLAIN_URL = 'https://cdn.vitrine.market/uploads/logo.png';

export const imageJobModel: MachineModel<typeof imageJobMachine> = {
  machine: imageJobMachine,
  fakes: ['startJob', 'checkJob', 'plainUpload'],
  scenarios: [
    { name: 'optimized upload', input: { file: IMAGE_FILE, assetKind: 'logo', optimize: true } },
    { name: 'plain upload', input: { file: IMAGE_FILE, assetKind: 'banner', optimize: false } },
  ],
  events: (s) => [
    { type: 'xstate.done.actor.startJob', output: { jobId: 'job-1' } },
    { type: 'xstate.error.actor.startJob', error: { code: 'NETWORK_FAILURE' } },
    { type: 'xstate.after.pollInterval.imageJob.optimizing.polling.waiting' },
    { type: 'xstate.done.actor.checkJob', output: { status: 'pending' } },
    { type: 'xstate.done.actor.checkJob', output: { status: 'complete', url: OPTIMIZED_URL } },
    { type: 'xstate.done.actor.checkJob', output: { status: 'fail' } },
    { type: 'xstate.error.actor.checkJob', error: { code: 'NETWORK_FAILURE' } },
    // The live run fires the earliest timer: while a poll is scheduled that is the poll, so the
    // timeout is explored only where it is the one timer left (starting, checking).
    ...(s.matches({ optimizing: { polling: 'waiting' } })
      ? []
      : [{ type: 'xstate.after.jobTimeout.imageJob.optimizing' }]),
    { type: 'xstate.done.actor.plainUpload', output: { url: PLAIN_URL } },
    { type: 'xstate.error.actor.plainUpload', error: { code: 'NETWORK_FAILURE' } },
    { type: 'image.retry' },
  ],
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.jobId,
      s.context.url,
      s.context.optimized,
      s.context.error?.code ?? null,
      s.status,
    ]),
  expect: {
    // Optimized upload first when asked (start a job, poll it), else or after any failure the plain one.
    optimizing: (o) => expect(o.snapshot.context.optimize).toBe(true),
    'optimizing.starting': (o) => expectWorking(o, 'startJob', sent(o)),
    'optimizing.polling.waiting': (o) => {
      expect(o.snapshot.context.jobId).toBe('job-1');
      if (after(o, 'done', 'checkJob')) expect(o.event.output).toEqual({ status: 'pending' });
    },
    'optimizing.polling.checking': (o) => {
      expect(o.event.type).toBe('xstate.after.pollInterval.imageJob.optimizing.polling.waiting');
      expectWorking(o, 'checkJob', { jobId: 'job-1' });
    },
    fallback: (o) => {
      expectWorking(o, 'plainUpload', sent(o));
      if (o.snapshot.context.optimize && o.event.type !== 'image.retry')
        expect(
          o.event.type.startsWith('xstate.error.actor.') ||
            o.event.type === 'xstate.after.jobTimeout.imageJob.optimizing' ||
            (after(o, 'done', 'checkJob') && (o.event.output as { status: string }).status === 'fail'),
        ).toBe(true);
    },
    failed: (o) => {
      expect(after(o, 'error', 'plainUpload')).toBe(true);
      expect(o.snapshot.context.error?.code).toBe('NETWORK_FAILURE');
    },
    done: (o) => {
      if (after(o, 'done', 'checkJob')) expectOutput(o, { url: OPTIMIZED_URL, optimized: true });
      else expectOutput(o, { url: PLAIN_URL, optimized: false });
    },
  },
};
