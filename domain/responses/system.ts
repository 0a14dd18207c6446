import * as v from 'valibot';
import { DateTime } from './common';

/** The server's own answers (health, chain, the API document) and uploads'. */

const ChainSummary = v.object({
  network: v.string(),
  accessNode: v.string(),
  /** Where FCL in the browser discovers wallets. */
  walletDiscovery: v.string(),
  /** The FCL dev wallet next to an embedded emulator. */
  devWallet: v.optional(v.string()),
});

export const Health = v.object({
  status: v.literal('ok'),
  database: v.picklist(['pglite', 'postgres']),
  chain: v.nullable(ChainSummary),
});

export const Readiness = v.object({
  status: v.literal('ready'),
  checks: v.record(v.string(), v.string()),
});

/** The OpenAPI 3.1 document of the API. */
export const OpenApiDocument = v.looseObject({
  openapi: v.string(),
  info: v.object({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.record(v.string(), v.unknown())),
});

/** What the browser needs to talk to the chain itself (FCL). */
export const ChainConfig = v.object({
  network: v.picklist(['emulator', 'testnet', 'mainnet']),
  accessNode: v.string(),
  walletDiscovery: v.string(),
  contracts: v.record(v.string(), v.string()),
  /** Receives the platform fee of resale listings. */
  platformAddress: v.string(),
});
export type ChainConfig = v.InferOutput<typeof ChainConfig>;

/**
 * Where to upload a file: the URL to PUT it to, where it will be public, until when the grant holds;
 * with an S3 store also the headers the PUT must carry and the API's URL to POST once it is there.
 */
export const UploadUrlAnswer = v.object({
  url: v.string(),
  publicUrl: v.string(),
  expiresAt: DateTime,
  headers: v.optional(v.record(v.string(), v.string())),
  confirmUrl: v.optional(v.string()),
});
export type UploadUrlAnswer = v.InferOutput<typeof UploadUrlAnswer>;

export const ImageJobCreated = v.object({ jobId: v.string() });
/** An image job: pending, complete (with the optimized file's URL) or fail. */
export const ImageJobJson = v.object({
  jobId: v.string(),
  status: v.picklist(['pending', 'complete', 'fail']),
  url: v.optional(v.string()),
});
