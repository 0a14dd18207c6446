/** The identity sandbox's keys and limits, its decisions, its options and handle, and the shape of a session. */

export const SANDBOX_API_KEY = 'vitrine-sandbox-veriff-api-key-0001';
export const SANDBOX_SHARED_SECRET = 'vitrine-sandbox-veriff-shared-secret';
export const SANDBOX_DEFAULT_PORT = 8793;
export const DEFAULT_RETRY_SCHEDULE = [1, 2, 5, 10, 30, 60, 120, 300];
/** A session nobody finishes expires after 7 days (Veriff's session lifetime). */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
export const MAX_ENTRIES = 10_000;
export const MAX_RESUBMISSIONS = 9;

export type Decision =
  | 'approved'
  | 'declined'
  | 'resubmission_requested'
  | 'review'
  | 'abandoned'
  | 'expired';
export const DECISIONS: Record<
  Decision,
  { code: number; label: string; reason: string | null; reasonCode: number | null }
> = {
  approved: { code: 9001, label: 'Approve', reason: null, reasonCode: null },
  // 102 "Suspected document tampering" (Veriff's decline codes table).
  declined: { code: 9102, label: 'Decline', reason: 'Suspected document tampering', reasonCode: 102 },
  // Resubmission codes are 2xx in Veriff's table; 204 "Poor image quality" stands in for them.
  resubmission_requested: {
    code: 9103,
    label: 'Request resubmission',
    reason: 'Poor image quality',
    reasonCode: 204,
  },
  review: { code: 9121, label: 'Send to manual review', reason: null, reasonCode: null },
  abandoned: { code: 9104, label: 'Abandon', reason: null, reasonCode: null },
  expired: { code: 9104, label: 'Let it expire', reason: null, reasonCode: null },
};
export const DECISION_NAMES = Object.keys(DECISIONS) as Decision[];

export interface VeriffSandboxOptions {
  /** 0 picks a free port; default SANDBOX_DEFAULT_PORT. */
  port?: number;
  /** Where it listens (default 127.0.0.1: the sandbox answers anyone holding its published keys). */
  host?: string;
  apiKey?: string;
  sharedSecret?: string;
  /** Where decisions are posted ("Webhook decisions URL"); none: no decision webhooks. */
  decisionWebhookUrl?: string;
  /** Where started/submitted events are posted ("Webhook events URL"); none: no event webhooks. */
  eventWebhookUrl?: string;
  retrySchedule?: number[];
  /** Deliver each webhook this many times (at-least-once delivery, for tests); default 1. */
  deliveries?: number;
  now?: () => Date;
}

export interface VeriffSandbox {
  url: string;
  port: number;
  /** Deliveries attempted so far (for tests): session id, kind, status and the HTTP answer (0: none). */
  deliveries: { sessionId: string; kind: 'event' | 'decision'; status: string; http: number }[];
  /** Decides a session as the hosted page would (for API tests), delivering its webhook. */
  decide(sessionId: string, decision: Decision): Promise<void>;
  close(): Promise<void>;
}

export interface Session {
  id: string;
  token: string;
  vendorData: string | null;
  endUserId: string | null;
  callback: string | null;
  person: { firstName: string | null; lastName: string | null };
  createdAt: Date;
  status: 'created' | 'started' | 'submitted' | Decision;
  resubmissions: number;
  decision: {
    status: Decision;
    code: number;
    reason: string | null;
    reasonCode: number | null;
    time: Date;
  } | null;
}
