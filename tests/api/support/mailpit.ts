import { expect, inject } from 'vitest';
import type { MailConfig } from '../../../server/mail/config';

/**
 * The API suites' real mail server: the Mailpit of tests/setup/mailpit.ts. `useTestApp(kind, { mail:
 * testMail() })` delivers a suite's emails to it through the app's job worker, as on a server; these
 * helpers read them back through Mailpit's API.
 */

/** Mail settings that send to the test Mailpit. */
export const testMail = (): MailConfig => ({
  mode: 'smtp',
  smtpUrl: inject('mailpitSmtp'),
  from: 'Vitrine <no-reply@vitrine.test>',
  mailpitSmtpPort: 1025,
  mailpitUiPort: 8025,
});

export interface MailpitMessage {
  ID: string;
  /** Without the angle brackets. */
  MessageID: string;
  From: { Name: string; Address: string };
  To: { Name: string; Address: string }[];
  Subject: string;
  Date: string;
  Text: string;
  HTML: string;
  ListUnsubscribe: { Header: string; Links: string[] };
}

const api = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${inject('mailpitUrl')}/api/v1/${path}`);
  if (!res.ok) throw new Error(`Mailpit ${path}: ${res.status}`);
  return (await res.json()) as T;
};

/** Every message Mailpit holds for exactly this address, newest first, in full. */
export async function inbox(to: string): Promise<MailpitMessage[]> {
  const { messages } = await api<{ messages: { ID: string; To: { Address: string }[] }[] }>(
    `search?query=${encodeURIComponent(`to:"${to}"`)}&limit=200`,
  );
  // Mailpit's to: matches part of an address; a-b@x.com also holds b@x.com.
  const mine = messages.filter((m) => m.To.some((r) => r.Address.toLowerCase() === to.toLowerCase()));
  return Promise.all(mine.map((m) => api<MailpitMessage>(`message/${m.ID}`)));
}

/** A message's headers, each with its values. */
export const headersOf = (id: string) => api<Record<string, string[]>>(`message/${id}/headers`);

/**
 * The messages to the address once there are `count` of them (the job worker delivers in the
 * background), newest first.
 */
export async function waitForEmails(to: string, count = 1): Promise<MailpitMessage[]> {
  let messages: MailpitMessage[] = [];
  await expect
    .poll(
      async () => {
        messages = await inbox(to);
        return messages.length;
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBeGreaterThanOrEqual(count);
  return messages;
}

/** The first link to the app (http://vitrine.test) in a message's text. */
export const appLink = (message: MailpitMessage) => /http:\/\/vitrine\.test\/\S+/.exec(message.Text)?.[0];
