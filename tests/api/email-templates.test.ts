import { describe, expect, it } from 'vitest';
import { confirmNewEmail, emailChangeNotice } from '../../server/emails/email-change';
import { identityDecisionEmail, identityReopenedEmail } from '../../server/emails/identity';
import { brand } from '../../server/emails/layout';
import { passwordResetEmail } from '../../server/emails/password-reset';
import { saleNoticeEmail } from '../../server/emails/sale';
import type { Email } from '../../server/outbox';

/**
 * Every email the product sends, rendered from its template (server/emails): both parts are
 * snapshotted, and each carries the brand, its link from the canonical origin in both parts, and
 * only the optional sale email an unsubscribe link and header.
 */
const ORIGIN = 'https://vitrine.example';
const ada = { email: 'ada@example.com', firstName: 'Ada' };
const unsubscribe = `${ORIGIN}/unsubscribe?t=0b7f5c1e-7a0f-4c4f-9a77-3c1d2b9e8f10.signature`;

const emails: [string, () => Promise<Email | null>][] = [
  ['password reset', () => passwordResetEmail(ada, `${ORIGIN}/auth/reset-password?t=token`)],
  [
    'new email confirmation',
    () => confirmNewEmail(ada, 'grace@example.com', `${ORIGIN}/confirm-email?t=token`),
  ],
  ['email change notice', () => emailChangeNotice(ada, 'grace@example.com', ORIGIN)],
  ['identity approved', () => identityDecisionEmail(ada, { status: 'approved', reason: null }, ORIGIN)],
  [
    'identity declined',
    () => identityDecisionEmail(ada, { status: 'declined', reason: 'Document expired' }, ORIGIN),
  ],
  [
    'identity resubmission',
    () => identityDecisionEmail(ada, { status: 'resubmission_requested', reason: 'Photo blurry' }, ORIGIN),
  ],
  ['identity reopened', () => identityReopenedEmail(ada, ORIGIN)],
  [
    'sale notice',
    () =>
      saleNoticeEmail(ada.email, {
        firstName: 'Ada',
        item: 'Night Drive #03',
        price: '$25',
        net: '$23.75',
        link: `${ORIGIN}/dashboard/notifications`,
        unsubscribe,
      }),
  ],
];

describe('email templates', () => {
  it.each(emails)('%s: HTML and plain text', async (_, make) => {
    const email = (await make())!;
    expect(email.html).toMatchSnapshot('html');
    expect(email.text).toMatchSnapshot('text');
    // The product's look: its name and colors.
    expect(email.html).toContain(brand.name);
    expect(email.html).toContain(brand.primary);
    expect(email.text).toContain(brand.name);
    // A working link from the canonical origin, in both parts.
    expect(email.link).toMatch(new RegExp(`^${ORIGIN}/`));
    expect(email.html).toContain(`href="${email.link!.replace(/&/g, '&amp;')}"`);
    expect(email.text).toContain(email.link);
  });

  it('puts an unsubscribe link (and List-Unsubscribe) in the sale email only: the others are not optional', async () => {
    for (const [name, make] of emails) {
      const email = (await make())!;
      const optional = name === 'sale notice';
      expect([name, email.headers?.['List-Unsubscribe']]).toEqual([
        name,
        optional ? `<${unsubscribe}>` : undefined,
      ]);
      expect([name, email.html.includes(`href="${unsubscribe}"`), email.text.includes(unsubscribe)]).toEqual([
        name,
        optional,
        optional,
      ]);
    }
  });

  it('sends nothing for a decision that tells nobody', async () => {
    for (const status of ['review', 'expired', 'abandoned'] as const)
      expect(await identityDecisionEmail(ada, { status, reason: null }, ORIGIN)).toBeNull();
  });
});
