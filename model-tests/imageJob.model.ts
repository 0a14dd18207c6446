import { imageJobMachine } from '../machines/imageJob';
import type { MachineModel } from './harness';

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
};
