import addressparser from 'nodemailer/lib/addressparser';
import { integer, providerMode } from '../env';

/**
 * Where email goes (MAIL): `embedded` (the embedded world's default) starts Mailpit with the server,
 * its SMTP on 127.0.0.1:MAILPIT_SMTP_PORT (1025) and its inbox, web UI and API on
 * http://127.0.0.1:MAILPIT_UI_PORT (8025); `smtp` hands every email to the relay at SMTP_URL
 * (`smtp://` or `smtps://user:password@host:port`); `off` sends nothing: emails wait in the outbox
 * table (and go out once a relay is configured, if still within their 24 hours). Given SMTP_URL the
 * mode is `smtp`; without the embedded world and without SMTP_URL it is `off`, like any provider
 * whose settings are unset. MAIL_FROM is the sender (default `Vitrine <no-reply@<PUBLIC_URL's host>>`);
 * its domain names the Message-IDs.
 */
export interface MailConfig {
  mode: 'embedded' | 'smtp' | 'off';
  /** The relay; for the embedded Mailpit, known once it listens. */
  smtpUrl: string | undefined;
  from: string;
  mailpitSmtpPort: number;
  mailpitUiPort: number;
}

export function mailConfig(env: NodeJS.ProcessEnv, publicUrl: string, embedded = true): MailConfig {
  const mode = providerMode(env, 'MAIL', 'smtp', { all: ['SMTP_URL'], url: 'SMTP_URL' }, embedded);
  const problems: string[] = [];
  const smtpUrl = env.SMTP_URL || undefined;
  if (mode === 'smtp' && !smtpUrl) problems.push('SMTP_URL is required with MAIL=smtp');
  if (smtpUrl && !/^smtps?:\/\/[^/?#]+/.test(smtpUrl))
    problems.push(
      'SMTP_URL must be an smtp:// or smtps:// URL (e.g. smtps://user:password@mail.example.com:465)',
    );
  const host = URL.canParse(publicUrl) ? new URL(publicUrl).hostname : '';
  const from = env.MAIL_FROM || `Vitrine <no-reply@${host}>`;
  if (!mailDomain(from)) problems.push('MAIL_FROM must be one address, e.g. Vitrine <no-reply@example.com>');
  const port = (name: string, fallback: number) => {
    try {
      return integer(name, env[name], fallback, 1, 65535);
    } catch (err) {
      problems.push((err as Error).message);
      return fallback;
    }
  };
  const mailpitSmtpPort = port('MAILPIT_SMTP_PORT', 1025);
  const mailpitUiPort = port('MAILPIT_UI_PORT', 8025);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return {
    mode,
    smtpUrl: mode === 'smtp' ? smtpUrl : undefined,
    from,
    mailpitSmtpPort,
    mailpitUiPort,
  };
}

/** The domain of a sender like `Name <user@domain>`; undefined unless it is exactly one address. */
export function mailDomain(from: string): string | undefined {
  const parsed = addressparser(from, { flatten: true });
  if (parsed.length !== 1) return undefined;
  return /^[^@\s]+@([^@\s]+\.)*[^@\s.]+$/.test(parsed[0]!.address)
    ? parsed[0]!.address.split('@')[1]
    : undefined;
}
