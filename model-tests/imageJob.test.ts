import { afterAll, describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { timings } from '#domain/constants';
import { connectImageJob, imageJobMachine } from '../machines/imageJob';
import { flushCoverage } from './coverage-store';
import { FakeActors, flush, generatePaths, recordMicrosteps, runPath } from './harness';
import { IMAGE_FILE, imageJobModel, OPTIMIZED_URL, PLAIN_URL } from './imageJob.model';

function start(optimize: boolean) {
  const fakes = new FakeActors(['startJob', 'checkJob', 'plainUpload']);
  const clock = new SimulatedClock();
  const actor = createActor(imageJobMachine.provide({ actors: fakes.implementations() as never }), {
    input: { file: IMAGE_FILE, assetKind: 'logo', optimize },
    clock,
    inspect: recordMicrosteps,
  }).start();
  return { actor, clock, fakes };
}

describe('image job machine paths', () => {
  const paths = generatePaths(imageJobModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(imageJobModel, path));

  it('polls every second and ends with the optimized URL', async () => {
    const { actor, clock, fakes } = start(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    fakes.settle('startJob', { output: { jobId: 'job-7' } });
    await flush();
    clock.increment(timings.imageJobPollMs - 1);
    expect(fakes.calls.filter((c) => c.name === 'checkJob')).toHaveLength(0);
    clock.increment(1);
    await flush();
    fakes.settle('checkJob', { output: { status: 'complete', url: OPTIMIZED_URL } });
    await flush();
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ url: OPTIMIZED_URL, optimized: true });
    expect(fakes.calls.map((c) => [c.name, c.input])).toEqual([
      ['startJob', { file: IMAGE_FILE, assetKind: 'logo' }],
      ['checkJob', { jobId: 'job-7' }],
    ]);
  });

  it('falls back to a plain upload when the job is still pending after 10 s', async () => {
    const { actor, clock, fakes } = start(true);
    fakes.settle('startJob', { output: { jobId: 'job-8' } });
    await flush();
    const checks = () => fakes.calls.filter((c) => c.name === 'checkJob').length;
    // A poll every second from 1 s to 9 s, each still pending.
    for (let n = 1; n * timings.imageJobPollMs < timings.imageJobTimeoutMs; n++) {
      clock.increment(timings.imageJobPollMs);
      await flush();
      expect(checks()).toBe(n);
      fakes.settle('checkJob', { output: { status: 'pending' } });
      await flush();
    }
    clock.set(timings.imageJobTimeoutMs - 1);
    expect(actor.getSnapshot().matches('optimizing')).toBe(true);
    clock.set(timings.imageJobTimeoutMs);
    await flush();
    expect(actor.getSnapshot().value).toBe('fallback');
    expect(fakes.calls.at(-1)).toEqual({
      name: 'plainUpload',
      input: { file: IMAGE_FILE, assetKind: 'logo' },
    });
    fakes.settle('plainUpload', { output: { url: PLAIN_URL } });
    await flush();
    expect(actor.getSnapshot().output).toEqual({ url: PLAIN_URL, optimized: false });
  });

  it('retries from the start after a failed plain upload', async () => {
    const { actor, fakes } = start(false);
    fakes.settle('plainUpload', { error: { code: 'NETWORK_FAILURE', message: '' } });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error?.code).toBe('NETWORK_FAILURE');
    actor.send({ type: 'image.retry' });
    expect(actor.getSnapshot().value).toBe('fallback');
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(fakes.calls.filter((c) => c.name === 'plainUpload')).toHaveLength(2);
  });

  it('tells its status line what runs, the error of a failed upload and when it may be retried', async () => {
    const sent: unknown[] = [];
    const { actor, fakes } = start(true);
    const view = () => connectImageJob(actor.getSnapshot(), (e) => sent.push(e));
    expect(view()).toMatchObject({
      busy: true,
      status: 'Optimizing the image…',
      canRetry: false,
      error: null,
    });
    fakes.settle('startJob', { error: { code: 'NETWORK_FAILURE', message: '' } });
    await flush();
    expect(view()).toMatchObject({ busy: true, status: 'Uploading the image…', url: null });
    // The server's answer names the rule's limit and the file's size (domain/assets.ts imageProblem).
    const params = { size: '1.4 MB', maxSize: '1 MB' };
    fakes.settle('plainUpload', {
      error: { status: 400, body: { code: 'FILE_SIZE_BIG', message: '', params } },
    });
    await flush();
    expect(view()).toMatchObject({
      busy: false,
      status: null,
      canRetry: true,
      error: 'This file is 1.4 MB: the limit is 1 MB.',
    });
    view().retry();
    expect(sent).toEqual([{ type: 'image.retry' }]);
  });

  afterAll(() => flushCoverage('machine'));
});
