import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { S3Settings } from '../../../server/storage/s3';
import { type RunningSeaweed, startSeaweed } from '../../../server/storage/seaweed';

/**
 * A real S3-compatible store for the enclosing file: SeaweedFS (server/storage/seaweed.ts) started
 * before its tests on free ports of 127.0.0.1 and stopped after them; each bucket() is a new empty
 * bucket on it. Only the files that test S3 start one (its binary is built into .tools the first
 * time, a few minutes), so the other API files never wait for it.
 */
export function withSeaweed() {
  let seaweed: RunningSeaweed | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vitrine-seaweed-'));
    seaweed = await startSeaweed({ dir, log: (line) => console.log(`[seaweed] ${line}`) });
  }, 600_000);
  afterAll(async () => {
    await seaweed?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get endpoint() {
      return seaweed!.endpoint;
    },
    /** A new empty bucket's settings. */
    async bucket(): Promise<S3Settings> {
      const name = `test-${randomBytes(6).toString('hex')}`;
      await seaweed!.createBucket(name);
      return seaweed!.settings(name);
    },
  };
}
