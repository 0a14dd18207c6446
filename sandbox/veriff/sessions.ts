import { randomUUID } from 'node:crypto';
import {
  DECISIONS,
  type Decision,
  MAX_ENTRIES,
  MAX_RESUBMISSIONS,
  SESSION_TTL_MS,
  type Session,
  type VeriffSandbox,
} from './types';

/**
 * The sessions in memory (the newest MAX_ENTRIES), by id and by token, their event webhooks and
 * their decisions (each delivered, its first attempt answered, before `decide` resolves).
 */
export function createSessionStore(options: {
  now: () => Date;
  eventWebhookUrl: string | undefined;
  decisionWebhookUrl: string | undefined;
  send: (
    url: string | undefined,
    body: unknown,
    meta: Omit<VeriffSandbox['deliveries'][number], 'http'>,
  ) => Promise<void>;
}) {
  const { now, send } = options;
  const sessions = new Map<string, Session>();
  const byToken = new Map<string, string>();

  const remember = (s: Session) => {
    sessions.set(s.id, s);
    byToken.set(s.token, s.id);
    if (sessions.size > MAX_ENTRIES) {
      const oldest = sessions.values().next().value as Session;
      sessions.delete(oldest.id);
      byToken.delete(oldest.token);
    }
  };

  function sendEvent(s: Session, action: 'started' | 'submitted') {
    return send(
      options.eventWebhookUrl,
      {
        id: s.id,
        attemptId: randomUUID(),
        feature: 'selfid',
        code: action === 'started' ? 7001 : 7002,
        action,
        vendorData: s.vendorData,
        ...(s.endUserId ? { endUserId: s.endUserId } : {}),
      },
      { sessionId: s.id, kind: 'event', status: action },
    );
  }

  function decisionJson(s: Session) {
    const d = s.decision;
    if (!d) return null;
    return {
      id: s.id,
      attemptId: randomUUID(),
      code: d.code,
      status: d.status,
      reason: d.reason,
      reasonCode: d.reasonCode,
      vendorData: s.vendorData,
      ...(s.endUserId ? { endUserId: s.endUserId } : {}),
      person: {
        firstName: s.person.firstName,
        lastName: s.person.lastName,
        idNumber: null,
        dateOfBirth: null,
        gender: null,
        nationality: null,
        placeOfBirth: null,
      },
      document:
        d.status === 'approved'
          ? { number: 'SANDBOX0001', type: 'PASSPORT', country: 'US', validFrom: null, validUntil: null }
          : null,
      decisionTime: d.time.toISOString(),
      acceptanceTime: s.createdAt.toISOString(),
      riskLabels: [],
      additionalVerifiedData: {},
      comments: [],
    };
  }

  async function decide(s: Session, wanted: Decision) {
    let status = wanted;
    let { code, reason, reasonCode } = DECISIONS[wanted];
    if (wanted === 'resubmission_requested' && s.resubmissions >= MAX_RESUBMISSIONS) {
      status = 'declined';
      ({ code } = DECISIONS.declined);
      reason = 'Resubmission limit exceeded';
      reasonCode = 539;
    }
    if (status === 'resubmission_requested') s.resubmissions += 1;
    s.status = status;
    s.decision = { status, code, reason, reasonCode, time: now() };
    await send(
      options.decisionWebhookUrl,
      { status: 'success', verification: decisionJson(s), technicalData: { ip: '127.0.0.1' } },
      { sessionId: s.id, kind: 'decision', status },
    );
  }

  /** A session nobody finished within its lifetime is expired (checked when it is read). */
  async function expireIfDue(s: Session) {
    if (!s.decision && now().getTime() - s.createdAt.getTime() > SESSION_TTL_MS) await decide(s, 'expired');
    return s;
  }

  return {
    byId: (id: string) => sessions.get(id),
    byToken: (token: string) => sessions.get(byToken.get(token) ?? ''),
    remember,
    sendEvent,
    decisionJson,
    decide,
    expireIfDue,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
