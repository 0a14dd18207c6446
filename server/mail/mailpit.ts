import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ensureMailpit } from '../../scripts/go-tools';

/**
 * The embedded world's mail server: Mailpit (built into .tools by scripts/go-tools.ts), which takes
 * every email over SMTP and shows it in its inbox (web UI and API). Both listen on 127.0.0.1 only, and
 * its web UI answers only to the Host names 127.0.0.1 and localhost (against DNS rebinding: the inbox
 * holds password reset links). With a data directory its messages persist in
 * `<dataDir>/mailpit/mailpit.db`, like the rest of the embedded world, so a link sent before a
 * restart can still be read; without one they live in a temporary database. No version check.
 *
 * When a Mailpit already answers on both ports (its API on the UI port, its greeting on the SMTP
 * port: one left running by an earlier start, or the developer's own), it is used as it is and left
 * running: emails still land in the inbox the README names. Any other holder of a port stops the
 * start, naming the settings.
 */
export interface Mailpit {
  /** Where to send: smtp://127.0.0.1:PORT. */
  smtpUrl: string;
  /** The inbox: web UI at /, API at /api/v1. */
  url: string;
  stop(): Promise<void>;
}

export interface MailpitOptions {
  smtpPort: number;
  uiPort: number;
  /** Keep the messages in `<dataDir>/mailpit`; without it, a temporary database. */
  dataDir?: string;
  log?: (line: string) => void;
}

/** Whether Mailpit's API answers at `url`. */
const mailpitApi = async (url: string) => {
  const res = await fetch(`${url}/api/v1/info`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
  const info = res?.ok ? ((await res.json().catch(() => null)) as { Version?: string } | null) : null;
  return typeof info?.Version === 'string';
};

/** Whether Mailpit greets on the SMTP port (`220 <host> Mailpit ESMTP Service ready`). */
const mailpitSmtp = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let greeting = '';
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('data', (chunk) => {
      greeting += chunk.toString();
      if (greeting.includes('\n')) done(/^220 .*Mailpit/.test(greeting));
    });
  });

const runningMailpit = async (url: string, smtpPort: number) =>
  (await mailpitApi(url)) && (await mailpitSmtp(smtpPort));

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startMailpit(options: MailpitOptions): Promise<Mailpit> {
  const log = options.log ?? (() => {});
  const url = `http://127.0.0.1:${options.uiPort}`;
  const smtpUrl = `smtp://127.0.0.1:${options.smtpPort}`;
  if (await runningMailpit(url, options.smtpPort)) {
    log(`Mailpit already runs on ${url}: emails go to it (SMTP ${smtpUrl}), and it stays running`);
    return { smtpUrl, url, stop: async () => {} };
  }
  const binary = await ensureMailpit({ log });
  const args = [
    '--disable-version-check',
    '--smtp',
    `127.0.0.1:${options.smtpPort}`,
    '--listen',
    `127.0.0.1:${options.uiPort}`,
    '--allowed-hosts',
    `127.0.0.1:${options.uiPort},localhost:${options.uiPort}`,
    '--smtp-disable-rdns',
  ];
  if (options.dataDir) {
    const dir = join(options.dataDir, 'mailpit');
    mkdirSync(dir, { recursive: true });
    args.push('--database', join(dir, 'mailpit.db'));
  }
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => {
      const taken = /address already in use/.test(output);
      reject(
        new Error(
          taken
            ? `Mailpit cannot listen: port ${options.smtpPort} (MAILPIT_SMTP_PORT) or ${options.uiPort} (MAILPIT_UI_PORT) is taken by something that is not Mailpit. Stop it, choose other ports, or set MAIL=off.`
            : `Mailpit exited with ${code}: ${output}`,
        ),
      );
    }),
  );
  exited.catch(() => undefined);
  try {
    await Promise.race([exited, ready(url, options.smtpPort, child)]);
  } catch (err) {
    await stopProcess(child);
    throw err;
  }
  log(`Mailpit (every email's inbox) on ${url}, SMTP on ${smtpUrl}`);
  return { smtpUrl, url, stop: () => stopProcess(child) };
}

/** Until both of this Mailpit's ports answer as Mailpit (a port another process holds never does). */
async function ready(url: string, smtpPort: number, child: ChildProcess, timeoutMs = 30_000) {
  for (const end = Date.now() + timeoutMs; Date.now() < end && child.exitCode === null; ) {
    if (await runningMailpit(url, smtpPort)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Mailpit did not answer on ${url} within ${timeoutMs} ms`);
}
