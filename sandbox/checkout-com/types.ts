import { randomBytes } from 'node:crypto';
import type { Card } from './cards';

/** The card sandbox's keys and limits, its options and handle, and the shape of a payment. */

export const SANDBOX_PUBLIC_KEY = 'pk_sbox_vitrinesandboxpublickeyabcd';
export const SANDBOX_SECRET_KEY = 'sk_sbox_vitrinesandboxsecretkeyabcd';
export const SANDBOX_WEBHOOK_KEY = 'vitrine-sandbox-webhook-signature-key';
export const SANDBOX_DEFAULT_PORT = 8790;
/** Seconds between webhook retries (Checkout.com waits 5 min, 10 min, … 12 h; a sandbox need not). */
export const DEFAULT_RETRY_SCHEDULE = [1, 2, 5, 10, 30, 60, 120, 300];

export const TOKEN_TTL_MS = 15 * 60_000;
/** Apple's merchant sessions expire 5 minutes after they are made. */
export const MERCHANT_SESSION_TTL_MS = 5 * 60_000;
export const SESSION_TTL_MS = 15 * 60_000;
export const MAX_ENTRIES = 10_000;

export interface SandboxOptions {
  /** 0 picks a free port; default SANDBOX_DEFAULT_PORT. */
  port?: number;
  /** Where it listens (default 127.0.0.1: the sandbox answers anyone holding its published keys). */
  host?: string;
  publicKey?: string;
  secretKey?: string;
  /** Where payment events are posted; none: no webhooks. */
  webhookUrl?: string;
  webhookSignatureKey?: string;
  /** Seconds before each retry of a failed delivery. */
  retrySchedule?: number[];
  /** Deliver each event this many times (at-least-once delivery, for tests); default 1. */
  deliveries?: number;
  now?: () => Date;
}

export interface Sandbox {
  url: string;
  port: number;
  setWebhookUrl(url: string | undefined): void;
  /** Deliveries attempted so far (for tests): event id, type and the HTTP status (0: no answer). */
  deliveries: { id: string; type: string; status: number }[];
  close(): Promise<void>;
}

export type Status =
  | 'Pending'
  | 'Authorized'
  | 'Card Verified'
  | 'Captured'
  | 'Declined'
  | 'Voided'
  | 'Refunded'
  | 'Expired';

export interface Payment {
  id: string;
  sessionId: string | null;
  actionId: string;
  amount: number;
  currency: string;
  reference: string | null;
  status: Status;
  approved: boolean;
  responseCode: string | null;
  responseSummary: string | null;
  sourceId: string;
  card: Card;
  successUrl: string | null;
  failureUrl: string | null;
  metadata: Record<string, unknown>;
  customer: Record<string, unknown> | null;
  requestedOn: Date;
  processedOn: Date | null;
  threeDs: { enrolled: 'Y' | 'N'; downgraded: boolean } | null;
  actions: { id: string; type: string; processed_on: string; amount: number; approved: boolean }[];
}

/** `<prefix>_` and 26 lowercase base32 characters, as Checkout.com's ids. */
export function newId(prefix: string): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(26);
  let id = '';
  for (const b of bytes) id += alphabet[b % 32];
  return `${prefix}_${id}`;
}
