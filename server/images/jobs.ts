import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { AssetKind } from '#domain/assets';
import type { Log } from '../clock';
import type { Database } from '../db';
import { IMAGE_JOB, imageJobs } from '../db/schema';
import { rateLimited } from '../http';
import { enqueueJob, type JobHandler } from '../jobs';
import type { MediaStorage } from '../storage/storage';
import { createImageStore, decoder, formatOf, stagedKey, type UploadGrant } from './store';

/**
 * Image optimization as a durable job (POST /image-jobs, polled with GET /image-jobs/{id}): the
 * uploaded file waits in the media store (at the grant's stagedKey), the job in `image_jobs`, and
 * the job's `jobs` row is claimed by one worker of any server (row lock and lease, see
 * server/jobs.ts), which re-encodes the image (sharp, quality 85, palette PNG for PNG, mozjpeg
 * otherwise; a GIF is stored as it is) and stores it at the upload URL.
 * Image jobs are the queue's media lane: a worker runs one at a time (JOB_SLOTS), apart from money
 * work, and accounts take turns at it (fair share, server/jobs.ts).
 */
export { IMAGE_JOB };
/** Waiting image jobs one user may have; the next one answers 429. */
export const IMAGE_JOBS_PER_USER = 2;
/** Waiting image jobs of all users together; the next one answers 429. */
export const IMAGE_JOBS_QUEUED_MAX = 32;
/** How long a job is kept after its last change (finished, or started and never finished). */
export const IMAGE_JOB_TTL_MS = 10 * 60_000;
/** Retry-After (seconds) of a refused job: about the time the jobs ahead of it take. */
const IMAGE_JOB_RETRY_AFTER_S = 2;

export interface ImageJobRequest {
  grant: UploadGrant;
  quality: number;
}

/**
 * Records a job and its `jobs` row in one transaction and answers its id. The user's row is locked
 * while their waiting jobs are counted, so two requests at once (on two servers) cannot both take
 * the last place. Jobs older than IMAGE_JOB_TTL_MS are forgotten and count for nothing.
 */
export async function queueImageJob(db: Database, now: Date, request: ImageJobRequest): Promise<string> {
  const { grant } = request;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${grant.userId} for update`);
    const [counts] = await tx
      .select({
        mine: sql<number>`count(*) filter (where ${imageJobs.userId} = ${grant.userId})`.mapWith(Number),
        all: sql<number>`count(*)`.mapWith(Number),
      })
      .from(imageJobs)
      .where(and(eq(imageJobs.status, 'pending'), gt(imageJobs.updatedAt, forgottenBefore(now))));
    if ((counts?.all ?? 0) >= IMAGE_JOBS_QUEUED_MAX || (counts?.mine ?? 0) >= IMAGE_JOBS_PER_USER)
      throw rateLimited(
        IMAGE_JOB_RETRY_AFTER_S * 1000,
        'Too many images are being optimized. Please wait a moment.',
      );
    const [row] = await tx
      .insert(imageJobs)
      .values({
        userId: grant.userId,
        objectKey: grant.objectKey,
        mimeType: grant.mimeType,
        assetKind: grant.assetKind,
        quality: request.quality,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: imageJobs.id });
    await enqueueJob(tx, IMAGE_JOB, row!.id, now, grant.userId);
    return row!.id;
  });
}

const forgottenBefore = (now: Date) => new Date(now.getTime() - IMAGE_JOB_TTL_MS);

/** The user's job, unless it is unknown, another user's, or forgotten. */
export async function findImageJob(db: Database, now: Date, id: string, userId: string) {
  const [row] = await db
    .select({ id: imageJobs.id, status: imageJobs.status, url: imageJobs.url })
    .from(imageJobs)
    .where(
      and(eq(imageJobs.id, id), eq(imageJobs.userId, userId), gt(imageJobs.updatedAt, forgottenBefore(now))),
    );
  return row;
}

/** Deletes the jobs whose last change is IMAGE_JOB_TTL_MS old (a worker's periodic task). */
export async function forgetImageJobs(db: Database, now: Date): Promise<void> {
  await db.delete(imageJobs).where(lte(imageJobs.updatedAt, forgottenBefore(now)));
}

/** Re-encodes the image as the job asks; an image that cannot be decoded throws. */
async function optimize(input: Buffer, mimeType: string, kind: AssetKind, quality: number): Promise<Buffer> {
  const format = formatOf(mimeType);
  if (format === 'gif') return input;
  if (format === 'png')
    return decoder(input, kind).png({ palette: true, quality, compressionLevel: 9 }).toBuffer();
  return decoder(input, kind).jpeg({ quality, mozjpeg: true }).toBuffer();
}

/**
 * The worker's handler of IMAGE_JOB. A job already finished (run again after a crash) changes
 * nothing; an image that fails (cannot be decoded, breaks its kind's rules, is gone from the store)
 * finishes the job as `fail` with the reason. The original is removed from the store once the job
 * is finished.
 */
export function createImageJobHandler(deps: {
  db: Database;
  storage: MediaStorage;
  now?: () => Date;
  log?: Pick<Log, 'error'>;
}): JobHandler {
  const now = deps.now ?? (() => new Date());
  const store = createImageStore(deps.storage, deps.log ?? console);
  return {
    async run(job) {
      const [row] = await deps.db.select().from(imageJobs).where(eq(imageJobs.id, job.key));
      if (row?.status !== 'pending') return;
      const grant: UploadGrant = {
        userId: row.userId,
        objectKey: row.objectKey,
        mimeType: row.mimeType,
        assetKind: row.assetKind as AssetKind,
        expires: Number.POSITIVE_INFINITY,
      };
      let result: { status: 'complete'; url: string } | { status: 'fail'; error: string };
      try {
        const input = await deps.storage.read(stagedKey(grant));
        if (!input) throw new Error('The image to optimize is no longer stored.');
        const output = await optimize(input, row.mimeType, grant.assetKind, row.quality);
        // A run after a crash may find its own result stored already: that is this job's file.
        result = { status: 'complete', url: await store.store(grant, output, 'await', true) };
      } catch (err) {
        result = { status: 'fail', error: err instanceof Error ? err.message : String(err) };
      }
      await deps.db
        .update(imageJobs)
        .set({ ...result, updatedAt: now() })
        .where(and(eq(imageJobs.id, row.id), eq(imageJobs.status, 'pending')));
      await deps.storage.remove(stagedKey(grant));
    },
  };
}
