import type { TestProject } from 'vitest/node';
import { freePort } from '../../server/chain/emulator';
import { startMailpit } from '../../server/mail/mailpit';

/**
 * Vitest globalSetup of the "api" project: one real Mailpit (built into .tools by
 * scripts/go-tools.ts when missing) on free ports, its messages in a temporary database. Provides
 * `mailpitSmtp` (where suites that send email deliver: smtp://127.0.0.1:PORT) and `mailpitUrl` (its
 * API, read by tests/api/support/mailpit.ts); stops it afterwards. Suites read only the messages to
 * their own unique addresses, so they share it.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    mailpitSmtp: string;
    mailpitUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const mailpit = await startMailpit({
    smtpPort: await freePort(),
    uiPort: await freePort(),
    log: (line) => console.log(`[mailpit] ${line}`),
  });
  project.provide('mailpitSmtp', mailpit.smtpUrl);
  project.provide('mailpitUrl', mailpit.url);
  return () => mailpit.stop();
}
