import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_WEBHOOK_KEY } from '../../sandbox/checkout-com/index';
import { ensureFlowTools } from '../../scripts/go-tools';
import { ADDRESS_FREE_ACCOUNTS } from '../../server/auth/login-limit';
import { freePort } from '../../server/chain/emulator';
import { loadConfig } from '../../server/config';
import { type DatabaseHandle, openDb } from '../../server/db';
import { startMailpit } from '../../server/mail/mailpit';
import { start } from '../../server/start';
import { bothDatabases, newAccount, openTestDatabase, silentLog, testConfig } from './support/harness';
import { childProcesses, listeningSockets, outsideAddresses, tryConnect } from './support/sockets';

/**
 * A stand-in for `go` that builds the Flow tools from two small module directories: `go mod download`
 * waits (at most 10 s) until the test writes `<dir>/release`, and `go build` writes the file its
 * `-o` names with the copy of the source it was run in, so the test sees what was built.
 */
function fakeGo(dir: string): string {
  const modules = { emulator: join(dir, 'mod-emulator'), wallet: join(dir, 'mod-wallet') };
  mkdirSync(join(modules.emulator, 'server', 'debugger'), { recursive: true });
  writeFileSync(
    join(modules.emulator, 'server', 'debugger', 'debugger.go'),
    'listener, err = net.Listen("tcp", fmt.Sprintf(":%d", d.port))\n',
  );
  // The emulator's admin API, where the clock route is patched in (scripts/go-tools.ts).
  mkdirSync(join(modules.emulator, 'server', 'utils'), { recursive: true });
  writeFileSync(
    join(modules.emulator, 'server', 'utils', 'emulator.go'),
    '\t"strings"\n\trouter.HandleFunc("/emulator/newBlock", r.CommitBlock)\nfunc (m EmulatorAPIServer) ServeHTTP(w, r) {}\n',
  );
  mkdirSync(join(modules.wallet, 'go', 'wallet'), { recursive: true });
  writeFileSync(join(modules.wallet, 'go', 'wallet', 'server.go'), 'Addr: fmt.Sprintf(":%d", port),\n');
  const go = join(dir, 'go');
  writeFileSync(
    go,
    `#!/bin/sh
if [ "$1" = mod ]; then
  touch ${dir}/downloading
  i=0
  while [ ! -f ${dir}/release ]; do
    i=$((i + 1))
    if [ $i -gt 100 ]; then touch ${dir}/gave-up; exit 3; fi
    sleep 0.1
  done
  case "$4" in
    *flow-emulator*) echo '{"Dir":"${modules.emulator}"}' ;;
    *) echo '{"Dir":"${modules.wallet}"}' ;;
  esac
else
  cat server/debugger/debugger.go server/utils/emulator.go go/wallet/server.go > "$3" 2>/dev/null || test -s "$3"
fi
`,
  );
  chmodSync(go, 0o755);
  return go;
}

describe.each(bothDatabases)('the server process on %s', (database) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-server-'));
  const drops: (() => Promise<void>)[] = [];
  const freshDatabase = async () => {
    const created = await openTestDatabase(database);
    drops.push(created.drop);
    return created.url;
  };
  afterAll(async () => {
    for (const drop of drops) await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens at once, answers 503 until the database is ready, then serves; closes gracefully', async () => {
    const config = testConfig(await freshDatabase(), dataDir);
    const logged: unknown[][] = [];
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const server = await start(config, {
      log: silentLog(logged),
      openDatabase: async (c): Promise<DatabaseHandle> => {
        await opened;
        return openDb(c);
      },
    });
    const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
    try {
      expect(logged[0]).toEqual([
        `Vitrine listening on http://localhost:${server.port} (database: ${database})`,
      ]);

      const before = await fetch(url('/api/health'));
      expect(before.status).toBe(503);
      expect(await before.json()).toEqual({ status: 'starting', database });
      expect((await fetch(url('/api/users/me'))).status).toBe(503);

      open();
      await server.ready;
      const after = await fetch(url('/api/health'));
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual({ status: 'ok', database, chain: null });
    } finally {
      await server.close();
    }
    await expect(fetch(url('/api/health'))).rejects.toThrow();
    // A whole server's start and stop: slow on a loaded machine.
  }, 60_000);

  it('answers 503 starting while the Flow tools build: the build never blocks the event loop', async () => {
    const tools = mkdtempSync(join(tmpdir(), 'vitrine-tools-'));
    const go = fakeGo(tools);
    const server = await start(testConfig(await freshDatabase(), dataDir), {
      log: silentLog([]),
      // The chain's first step as on a first start: building the emulator and the dev wallet.
      startChain: async (_config, log) => {
        await ensureFlowTools({ dir: tools, go, log: (line) => log.info(line) });
        return null;
      },
    });
    const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
    try {
      while (!existsSync(join(tools, 'downloading'))) await new Promise((r) => setTimeout(r, 20));
      const health = await fetch(url('/api/health'));
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: 'starting', database });
      const other = await fetch(url('/api/users/me'));
      expect(other.status).toBe(503);
      expect((await other.json()).code).toBe('unavailable');
      // Those answers came while `go` was still at work, not after it gave up.
      expect(existsSync(join(tools, 'gave-up'))).toBe(false);

      writeFileSync(join(tools, 'release'), '');
      await server.ready;
      expect((await fetch(url('/api/health'))).status).toBe(200);
      // What was built is the patched source: loopback only, and the emulator's clock can move.
      const emulator = readFileSync(join(tools, 'bin', 'flow-emulator'), 'utf8');
      expect(emulator).toContain('fmt.Sprintf("127.0.0.1:%d", d.port)');
      expect(emulator).toContain('router.HandleFunc("/emulator/clock/advance", r.AdvanceClock)');
      expect(readFileSync(join(tools, 'bin', 'fcl-dev-wallet'), 'utf8')).toContain(
        'fmt.Sprintf("127.0.0.1:%d", port)',
      );
    } finally {
      writeFileSync(join(tools, 'release'), '');
      await server.close();
      rmSync(tools, { recursive: true, force: true });
    }
  }, 60_000);

  it('runs every embedded service (the four sandboxes, the EVM node, Mailpit) on 127.0.0.1 only', async () => {
    const base = testConfig(await freshDatabase(), join(dataDir, `loopback-${database}`));
    const logged: unknown[][] = [];
    const server = await start(
      {
        ...base,
        checkoutCom: { ...base.checkoutCom, mode: 'embedded' },
        coinbase: { ...base.coinbase, mode: 'embedded' },
        wert: { ...base.wert, mode: 'embedded' },
        veriff: { ...base.veriff, mode: 'embedded' },
        token: { mode: 'embedded', nodePort: 0, chainId: 31337, frrPerUsd: '10' },
        mail: {
          ...base.mail,
          mode: 'embedded',
          mailpitSmtpPort: await freePort(),
          mailpitUiPort: await freePort(),
        },
      },
      { log: silentLog(logged) },
    );
    try {
      await server.ready;
      const sandboxPorts = logged
        .map((line) => / sandbox \(.*\) on http:\/\/127\.0\.0\.1:(\d+)$/.exec(String(line[0]))?.[1])
        .filter((port) => port !== undefined)
        .map(Number);
      expect(sandboxPorts).toHaveLength(4);
      const ours = listeningSockets(process.pid);
      const sockets = [
        ...ours.filter((socket) => sandboxPorts.includes(socket.port)),
        ...childProcesses('anvil').flatMap(listeningSockets),
        ...childProcesses('mailpit').flatMap(listeningSockets),
      ];
      expect(sockets.length).toBeGreaterThanOrEqual(7);
      for (const socket of sockets) expect(socket.address, `port ${socket.port}`).toBe('127.0.0.1');
      for (const host of outsideAddresses())
        for (const { port } of sockets)
          expect(await tryConnect(host, port), `${host}:${port}`).toBe('ECONNREFUSED');
    } finally {
      await server.close();
    }
  }, 90_000);

  it('runs Mailpit for email: a reset email arrives in its inbox; stopped with the server, or used and left running when one already answers there', async () => {
    const mail = {
      ...testConfig('', dataDir).mail,
      mode: 'embedded' as const,
      mailpitSmtpPort: await freePort(),
      mailpitUiPort: await freePort(),
    };
    const inbox = `http://127.0.0.1:${mail.mailpitUiPort}`;
    const answers = async () => (await fetch(`${inbox}/api/v1/info`).catch(() => null))?.ok ?? false;
    /** Starts a server with this Mailpit, asks for a reset email and waits for it in the inbox. */
    async function resetArrives(name: string) {
      const dir = join(dataDir, `${name}-${database}`);
      const server = await start({ ...testConfig(await freshDatabase(), dir), mail }, { log: silentLog([]) });
      try {
        await server.ready;
        const api = `http://127.0.0.1:${server.port}/api`;
        const account = newAccount();
        const post = (path: string, body: unknown) =>
          fetch(`${api}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        expect((await post('/users/registrations', account)).status).toBe(201);
        expect((await post('/auth/logins/passwords/resets', { email: account.email })).status).toBe(204);
        await expect
          .poll(
            async () => {
              const found = await fetch(
                `${inbox}/api/v1/search?query=${encodeURIComponent(`to:"${account.email}"`)}`,
              );
              return ((await found.json()) as { messages: { Subject: string }[] }).messages.map(
                (m) => m.Subject,
              );
            },
            { timeout: 20_000 },
          )
          .toEqual(['Reset your Vitrine password']);
        return dir;
      } finally {
        await server.close();
      }
    }

    const dir = await resetArrives('mailpit');
    // Its messages are kept in the data directory; the server stopped it.
    expect(existsSync(join(dir, 'mailpit', 'mailpit.db'))).toBe(true);
    expect(await answers()).toBe(false);

    const own = await startMailpit({ smtpPort: mail.mailpitSmtpPort, uiPort: mail.mailpitUiPort });
    try {
      await resetArrives('own-mailpit');
      expect(await answers()).toBe(true);
    } finally {
      await own.stop();
    }

    // Something else holds the SMTP port: the start names the setting.
    const holder = createServer().listen(mail.mailpitSmtpPort, '127.0.0.1');
    await once(holder, 'listening');
    try {
      const server = await start(
        { ...testConfig(await freshDatabase(), join(dataDir, `taken-${database}`)), mail },
        { log: silentLog([]) },
      );
      await expect(server.ready).rejects.toThrow(/MAILPIT_SMTP_PORT/);
      await server.close();
    } finally {
      holder.close();
    }
  }, 120_000);

  it('starts nothing embedded with VITRINE_EMBEDDED=off: no sandbox, no chain, no seed, every unconfigured rail off', async () => {
    const logged: unknown[][] = [];
    const config = loadConfig({
      VITRINE_EMBEDDED: 'off',
      VITRINE_DATA_DIR: join(dataDir, `deployment-${database}`),
      DATABASE_URL: await freshDatabase(),
      PORT: '0',
      JWT_SECRET: 'a-deployment-secret-of-forty-characters!',
      FLOW_EMULATOR: 'off',
    });
    const server = await start(config, { log: silentLog(logged) });
    try {
      await server.ready;
      const res = await fetch(`http://127.0.0.1:${server.port}/api/config/payments`);
      expect(await res.json()).toEqual({
        card: null,
        crypto: false,
        balance: false,
        onramp: false,
        applePay: null,
        googlePay: null,
        walletStandIns: false,
      });
      expect(logged.map(String).filter((line) => /sandbox|seeded|anvil|emulator/i.test(line))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('counts failed logins per client address over real connections: X-Forwarded-For only from a trusted proxy', async () => {
    // A stopped clock: past ADDRESS_FREE_ACCOUNTS accounts failed, the address's next turn never comes.
    const stopped = new Date();
    const options = { log: silentLog([]), clock: () => stopped };
    const direct = await start(testConfig(await freshDatabase(), dataDir), options);
    const login = (port: number, email: string, forwardedFor?: string) =>
      fetch(`http://127.0.0.1:${port}/api/auth/logins`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(forwardedFor && { 'x-forwarded-for': forwardedFor }),
        },
        body: JSON.stringify({ email, password: 'wrong password' }),
      });
    try {
      await direct.ready;
      // Nobody is trusted: a client that rotates X-Forwarded-For is still one address.
      for (let i = 0; i < ADDRESS_FREE_ACCOUNTS; i++)
        expect((await login(direct.port, `nobody${i}@example.com`, `198.51.100.${i}`)).status).toBe(401);
      expect((await login(direct.port, 'someone@example.com', '198.51.100.77')).status).toBe(429);
    } finally {
      await direct.close();
    }

    const proxied = await start(
      testConfig(await freshDatabase(), dataDir, { trustedProxies: ['127.0.0.1'] }),
      options,
    );
    try {
      await proxied.ready;
      for (let i = 0; i < ADDRESS_FREE_ACCOUNTS; i++)
        expect((await login(proxied.port, `nobody${i}@example.com`, '198.51.100.9')).status).toBe(401);
      expect((await login(proxied.port, 'someone@example.com', '198.51.100.9')).status).toBe(429);
      // The proxy appends the real client to whatever the client wrote: the right-most hop counts.
      expect((await login(proxied.port, 'someone@example.com', '198.51.100.9, 198.51.100.10')).status).toBe(
        401,
      );
      expect((await login(proxied.port, 'someone@example.com', '198.51.100.11')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('refuses state-changing requests without a JSON body over real connections', async () => {
    const server = await start(testConfig(await freshDatabase(), dataDir), { log: silentLog([]) });
    const post = (path: string, init: RequestInit) =>
      fetch(`http://127.0.0.1:${server.port}/api/${path}`, { method: 'POST', ...init });
    const account = newAccount();
    try {
      await server.ready;
      // A string body is sent as text/plain, a byte body (no-cors fetch) with no content type.
      const plain = await post('users/registrations', { body: JSON.stringify(account) });
      expect(plain.status).toBe(415);
      expect((await plain.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const bytes = await post('users/registrations', {
        body: new TextEncoder().encode(JSON.stringify(account)),
      });
      expect(bytes.status).toBe(415);
      expect((await post('users/wallets/actions/request-account-proof', {})).status).toBe(201);
      const json = await post('users/registrations', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(account),
      });
      expect(json.status).toBe(201);
    } finally {
      await server.close();
    }
  });

  it('serves the SPA from the given directory in production', async () => {
    const spaDir = join(dataDir, 'dist');
    mkdirSync(join(spaDir, 'assets'), { recursive: true });
    writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Vitrine</title>');
    writeFileSync(join(spaDir, 'assets', 'app-1a2b.js'), 'export {}');
    const config = testConfig(await freshDatabase(), dataDir, { production: true, nodeEnv: 'production' });
    const server = await start(config, { log: silentLog([]), spaDir });
    try {
      await server.ready;
      const page = await fetch(`http://127.0.0.1:${server.port}/settings/account`);
      expect(await page.text()).toContain('<title>Vitrine</title>');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      const asset = await fetch(`http://127.0.0.1:${server.port}/assets/app-1a2b.js`);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-type')).toContain('javascript');
      expect(await asset.text()).toBe('export {}');
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      const api = await fetch(`http://127.0.0.1:${server.port}/api/health`);
      expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(api.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    } finally {
      await server.close();
    }
  });

  // A whole process (tsx compiles the server, the database migrates) is spawned once, on the
  // default database as `npm start` runs it (no DATABASE_URL); the tests above start the same
  // server in-process on each database.
  if (database !== 'pglite') return;
  it('`tsx server/main.ts` with VITRINE_EMBEDDED=off and unsafe settings names each and exits 1 without listening', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        VITRINE_DATA_DIR: join(dataDir, 'refused'),
        VITRINE_EMBEDDED: 'off',
        CHECKOUT_COM_WEBHOOK_KEY: SANDBOX_WEBHOOK_KEY,
        VERIFF_API_KEY: 'a-real-veriff-key',
        FLOW_EMULATOR: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(output).not.toContain('listening');
    expect(errors).toContain(
      [
        'Vitrine cannot start:',
        '- JWT_SECRET is required with VITRINE_EMBEDDED=off (at least 32 characters, the same on every instance)',
        '- CHECKOUT_COM_API_URL is required with CHECKOUT_COM=external',
        '- CHECKOUT_COM_PUBLIC_KEY is required with CHECKOUT_COM=external',
        '- CHECKOUT_COM_SECRET_KEY is required with CHECKOUT_COM=external',
        '- VERIFF_API_URL is required with VERIFF=external',
        '- VERIFF_SHARED_SECRET is required with VERIFF=external',
        "- CHECKOUT_COM_WEBHOOK_KEY is the embedded card sandbox's published webhook key",
      ].join('\n'),
    );
  }, 60_000);

  it('runs as `tsx server/main.ts` on the default database and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        VITRINE_DATA_DIR: join(dataDir, 'main'),
        DATABASE_URL: '',
        FLOW_EMULATOR: 'off',
        CHECKOUT_COM_SANDBOX_PORT: '0',
        COINBASE_COMMERCE_SANDBOX_PORT: '0',
        WERT_SANDBOX_PORT: '0',
        // Fixed ports would collide with a server another test file spawns at the same time.
        VERIFF_SANDBOX_PORT: '0',
        // So would Mailpit's (1025, 8025): no email leaves this server.
        MAIL: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => {
        errors += chunk;
      });
      // One connection per probe: while PGlite migrates, the server's event loop is blocked for
      // seconds, and a kept-alive socket can be closed by its idle timer just as the next probe
      // is written on it (ECONNRESET), which says nothing about the server.
      const health = () =>
        new Promise<{ status: number; json: () => unknown }>((resolve, reject) => {
          get(`http://127.0.0.1:${port}/api/health`, { agent: false }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              body += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(body) }));
            res.on('error', reject);
          }).on('error', reject);
        }).catch((cause: unknown) => {
          throw new Error(`the server stopped answering; its stderr:\n${errors}`, { cause });
        });
      const listening = new Promise<number>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk;
          const port = output.match(/Vitrine listening on http:\/\/localhost:(\d+) \(database: (\w+)\)/);
          if (port) resolve(Number(port[1]));
        });
      });
      const port = await listening;
      expect(output).toContain(`(database: ${database})`);
      let res = await health();
      while (res.status === 503) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        res = await health();
      }
      expect(res.json()).toEqual({ status: 'ok', database, chain: null });
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    // A whole server process (tsx compiles it, the database migrates): slow on a loaded machine.
  }, 90_000);
});
