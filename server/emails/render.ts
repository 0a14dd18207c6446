import { render, toPlainText } from '@react-email/render';
import type { ReactElement } from 'react';
import type { Email } from '../outbox';

/**
 * An email from its template (a React element, server/emails/*.tsx): the HTML part, and the
 * plain-text part made from it (each link written out after its text; headings as written).
 */
export async function renderEmail(
  envelope: Omit<Email, 'html' | 'text'>,
  element: ReactElement,
): Promise<Email> {
  const html = await render(element);
  const text = toPlainText(html, { selectors: [{ selector: 'h1', options: { uppercase: false } }] });
  return { ...envelope, html, text };
}
