import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  ListBucketsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { ensureSeaweed } from '../../scripts/go-tools';
import { freePort } from '../chain/emulator';
import type { S3Settings } from './s3';

/**
 * SeaweedFS (`weed server -s3`: master, volume server, filer and S3 gateway in one process), an
 * S3-compatible object store started by the project: for the S3 tests, and as the bucket of the
 * embedded world with STORAGE=s3 and no S3_ENDPOINT. Built into .tools by scripts/go-tools.ts when
 * missing. Every port listens on 127.0.0.1 only, all free ports; nothing is reported anywhere
 * (telemetry off); the S3 API takes one identity, the published key below.
 */
export const SEAWEED_ACCESS_KEY_ID = 'vitrine-embedded';
/** The embedded store's published secret (a deployment refuses it, server/embedded.ts). */
export const SEAWEED_SECRET_ACCESS_KEY = 'vitrine-embedded-seaweedfs-secret-key-0000';
export const SEAWEED_REGION = 'us-east-1';

export interface SeaweedOptions {
  /** Where its volumes, metadata and logs live (kept across starts). */
  dir: string;
  /** Buckets made at start unless they exist. */
  buckets?: string[];
  /** Origins whose browsers may send requests (CORS); all by default. */
  allowedOrigins?: string[];
  log?: (line: string) => void;
}

export interface RunningSeaweed {
  /** The S3 API's URL. */
  endpoint: string;
  /** Settings of a bucket on it. */
  settings(bucket: string): S3Settings;
  /** Makes the bucket unless it exists. */
  createBucket(bucket: string): Promise<void>;
  stop(): Promise<void>;
}

/** How long the first start (volumes made, filer store opened) may take. */
const START_TIMEOUT_MS = 60_000;
/** Where the start writes its probe object. */
const PROBE_BUCKET = 'seaweed-probe';
/**
 * How long it may take to stop before it is killed. It stops its volume server before its filer,
 * whose last metadata log then waits 15 s for a volume; the objects are safe by then.
 */
const STOP_GRACE_MS = 2000;

/**
 * Removes the Unix sockets SeaweedFS keeps in /tmp for these ports, whatever -dir says
 * (`seaweedfs-<part>-<port>.sock`); it removes them itself only when it stops on its own.
 */
function removeSockets(ports: number[]) {
  const ours = new RegExp(`^seaweedfs-[a-z-]+-(${ports.join('|')})\\.sock$`);
  for (const name of readdirSync('/tmp')) if (ours.test(name)) rmSync(join('/tmp', name), { force: true });
}

/**
 * Starts it; a start whose port was taken between choosing it and SeaweedFS listening on it (by
 * another process of the machine) is tried again on new ports, up to 3 times.
 */
export async function startSeaweed(options: SeaweedOptions): Promise<RunningSeaweed> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof PortTaken)) throw err;
      options.log?.(`SeaweedFS: ${err.message.split('\n')[0]}; starting again on other ports`);
    }
  }
}

class PortTaken extends Error {}

/** The weed server's arguments on free ports (listed in ports), and the S3 port among them. */
async function serverArgs(options: SeaweedOptions, identities: string) {
  const ports: number[] = [];
  const port = async (name: string) => {
    ports.push(await freePort());
    return [`-${name}`, String(ports.at(-1))];
  };
  const s3Port = await freePort();
  ports.push(s3Port);
  const args = [
    `-logdir=${join(options.dir, 'logs')}`,
    'server',
    '-ip=127.0.0.1',
    '-ip.bind=127.0.0.1',
    `-dir=${options.dir}`,
    ...(await port('master.port')),
    ...(await port('master.port.grpc')),
    ...(await port('volume.port')),
    ...(await port('volume.port.grpc')),
    // Volumes of 64 MB, as many as the disk holds: every bucket is a collection of its own volumes.
    '-master.volumeSizeLimitMB=64',
    '-volume.max=0',
    '-master.telemetry=false',
    '-filer',
    ...(await port('filer.port')),
    ...(await port('filer.port.grpc')),
    '-s3',
    `-s3.port=${s3Port}`,
    ...(await port('s3.port.grpc')),
    '-s3.port.iceberg=0',
    '-s3.port.lance=0',
    '-s3.iam=false',
    `-s3.config=${identities}`,
    `-s3.allowedOrigins=${(options.allowedOrigins ?? ['*']).join(',')}`,
  ];
  return { args, ports, s3Port };
}

async function startOnce(options: SeaweedOptions): Promise<RunningSeaweed> {
  const log = options.log ?? (() => {});
  const weed = await ensureSeaweed({ log });
  mkdirSync(join(options.dir, 'logs'), { recursive: true });
  const identities = join(options.dir, 's3.json');
  writeFileSync(
    identities,
    JSON.stringify({
      identities: [
        {
          name: 'vitrine',
          credentials: [{ accessKey: SEAWEED_ACCESS_KEY_ID, secretKey: SEAWEED_SECRET_ACCESS_KEY }],
          actions: ['Admin', 'Read', 'List', 'Tagging', 'Write'],
        },
      ],
    }),
  );
  const { args, ports, s3Port } = await serverArgs(options, identities);
  // One killed before it could stop (kill -9) left its sockets: one of these ports' would be in the way.
  removeSockets(ports);
  const child = spawn(weed, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${s3Port}`;
  const settings = (bucket: string): S3Settings => ({
    endpoint,
    bucket,
    region: SEAWEED_REGION,
    accessKeyId: SEAWEED_ACCESS_KEY_ID,
    secretAccessKey: SEAWEED_SECRET_ACCESS_KEY,
  });
  const client = new S3Client({
    endpoint,
    region: SEAWEED_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: SEAWEED_ACCESS_KEY_ID, secretAccessKey: SEAWEED_SECRET_ACCESS_KEY },
  });
  async function createBucket(bucket: string) {
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } catch (err) {
      const name = err instanceof S3ServiceException ? err.name : '';
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err;
    }
  }
  /**
   * Waits until the S3 API answers (once the filer behind it does), then until an object can be
   * written: a new master allocates no volume for about 5 s after it leads, so the first write
   * after a start waits that long. It is made here, not in the first upload.
   */
  async function writable() {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) {
        const message = `SeaweedFS exited with code ${child.exitCode}\n${stderr}`;
        throw /address already in use/.test(stderr) ? new PortTaken(message) : new Error(message);
      }
      try {
        await client.send(new ListBucketsCommand({}));
        break;
      } catch (err) {
        if (Date.now() > deadline)
          throw new Error(`SeaweedFS did not answer at ${endpoint}: ${err}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await createBucket(PROBE_BUCKET);
    await client.send(new PutObjectCommand({ Bucket: PROBE_BUCKET, Key: 'probe', Body: 'probe' }));
    await client.send(new DeleteObjectCommand({ Bucket: PROBE_BUCKET, Key: 'probe' }));
  }
  /** Stops it (killed after STOP_GRACE_MS), then removes the sockets it leaves in /tmp. */
  const stop = async () => {
    client.destroy();
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    removeSockets(ports);
  };
  try {
    await writable();
    for (const bucket of options.buckets ?? []) await createBucket(bucket);
  } catch (err) {
    await stop();
    throw err;
  }
  log(`SeaweedFS S3 API ready at ${endpoint}`);
  return { endpoint, settings, createBucket, stop };
}
