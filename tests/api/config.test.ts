import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
} from '../../sandbox/checkout-com/index';
import {
  SANDBOX_API_KEY as COINBASE_SANDBOX_API_KEY,
  SANDBOX_WEBHOOK_SECRET as COINBASE_SANDBOX_WEBHOOK_SECRET,
} from '../../sandbox/coinbase-commerce/index';
import {
  SANDBOX_API_KEY as VERIFF_SANDBOX_API_KEY,
  SANDBOX_SHARED_SECRET as VERIFF_SANDBOX_SHARED_SECRET,
} from '../../sandbox/veriff/index';
import {
  SANDBOX_API_KEY as WERT_SANDBOX_API_KEY,
  SANDBOX_PARTNER_ID as WERT_SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY as WERT_SANDBOX_PRIVATE_KEY,
} from '../../sandbox/wert/index';
import { EMULATOR_SERVICE_KEY } from '../../server/chain/emulator';
import { ConfigError, loadConfig } from '../../server/config';
import { databaseKind } from '../../server/db';
import { ANVIL_PAYMENTS_KEY } from '../../server/evm/anvil';
import { SEAWEED_SECRET_ACCESS_KEY } from '../../server/storage/seaweed';

describe('loadConfig', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = (vars: Record<string, string>) => ({ VITRINE_DATA_DIR: dataDir, ...vars });

  it('has defaults: port 3000, PGlite in the data dir, 15-minute tokens in 7-day sessions, no trusted proxy, development', () => {
    const config = loadConfig(env({}));
    expect(config).toMatchObject({
      port: 3000,
      dataDir,
      databaseUrl: undefined,
      tokenTtlSeconds: 15 * 60,
      sessionTtlSeconds: 7 * 24 * 3600,
      trustedProxies: [],
      publicUrl: 'http://localhost:3000',
      nodeEnv: 'development',
      production: false,
      devTools: true,
      flowEmulator: 'embedded',
      devWalletPort: 8701,
      seed: true,
      catalogCacheMs: 2000,
    });
    expect(databaseKind(config)).toBe('pglite');
  });

  it('defaults the data dir to ./data', () => {
    const cwd = process.cwd();
    process.chdir(dataDir);
    try {
      expect(loadConfig({}).dataDir).toBe(join(dataDir, 'data'));
    } finally {
      process.chdir(cwd);
    }
  });

  it('reads every variable', () => {
    const config = loadConfig(
      env({
        PORT: '8080',
        DATABASE_URL: 'postgres://u@db:5432/vitrine',
        JWT_SECRET: 's'.repeat(40),
        JWT_TTL_SECONDS: '3600',
        SESSION_TTL_SECONDS: '86400',
        VITRINE_TRUSTED_PROXIES: '10.0.0.1',
        PUBLIC_URL: 'https://vitrine.example/',
        NODE_ENV: 'production',
      }),
    );
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u@db:5432/vitrine',
      jwtSecret: 's'.repeat(40),
      tokenTtlSeconds: 3600,
      sessionTtlSeconds: 86400,
      trustedProxies: ['10.0.0.1'],
      publicUrl: 'https://vitrine.example',
      production: true,
      devTools: false,
    });
    expect(loadConfig(env({ NODE_ENV: 'production', VITRINE_DEV_OUTBOX: '1' })).devTools).toBe(true);

    expect(databaseKind(config)).toBe('postgres');
    expect(databaseKind({ ...config, databaseUrl: 'postgresql://u@db/v' })).toBe('postgres');
    expect(databaseKind({ ...config, databaseUrl: 'memory://' })).toBe('pglite');
  });

  it('starts an embedded emulator only on the emulator network, unless told otherwise', () => {
    expect(loadConfig(env({ FLOW_NETWORK: 'testnet' })).flowEmulator).toBe('external');
    expect(loadConfig(env({ FLOW_EMULATOR: 'off' })).flowEmulator).toBe('off');
    expect(loadConfig(env({ FLOW_EMULATOR: 'external' })).flowEmulator).toBe('external');
    expect(loadConfig(env({ FLOW_DEV_WALLET_PORT: '9701' })).devWalletPort).toBe(9701);
    expect(() => loadConfig(env({ FLOW_EMULATOR: 'maybe' }))).toThrow(/FLOW_EMULATOR/);
  });

  it('seeds the embedded world unless VITRINE_SEED=off', () => {
    expect(loadConfig(env({ VITRINE_SEED: 'off' })).seed).toBe(false);
    expect(loadConfig(env({ VITRINE_SEED: 'on' })).seed).toBe(true);
    expect(() => loadConfig(env({ VITRINE_SEED: 'maybe' }))).toThrow(/VITRINE_SEED/);
  });

  it('starts the embedded card sandbox by default; CHECKOUT_COM_API_URL and real keys select Checkout.com', () => {
    expect(loadConfig(env({})).checkoutCom).toEqual({
      mode: 'embedded',
      apiUrl: undefined,
      publicKey: SANDBOX_PUBLIC_KEY,
      secretKey: SANDBOX_SECRET_KEY,
      webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
      sandboxPort: 8790,
    });
    expect(loadConfig(env({ CHECKOUT_COM_SANDBOX_PORT: '0' })).checkoutCom.sandboxPort).toBe(0);
    expect(loadConfig(env({ CHECKOUT_COM: 'off' })).checkoutCom.mode).toBe('off');
    const real = {
      CHECKOUT_COM_API_URL: 'https://api.sandbox.checkout.com',
      CHECKOUT_COM_PUBLIC_KEY: 'pk_sbox_realrealrealrealrealrealrealre',
      CHECKOUT_COM_SECRET_KEY: 'sk_sbox_realrealrealrealrealrealrealre',
      CHECKOUT_COM_WEBHOOK_KEY: 'workflow-signature-key',
    };
    expect(loadConfig(env(real)).checkoutCom).toMatchObject({
      mode: 'external',
      apiUrl: 'https://api.sandbox.checkout.com',
      webhookSignatureKey: 'workflow-signature-key',
    });
    expect(() => loadConfig(env({ ...real, CHECKOUT_COM_SECRET_KEY: '' }))).toThrow(
      /CHECKOUT_COM_SECRET_KEY/,
    );
    expect(() => loadConfig(env({ CHECKOUT_COM: 'sometimes' }))).toThrow(/CHECKOUT_COM must be/);
  });

  it('starts the embedded crypto sandbox by default; COINBASE_COMMERCE_API_URL and a real key select Coinbase', () => {
    expect(loadConfig(env({})).coinbase).toEqual({
      mode: 'embedded',
      apiUrl: undefined,
      apiKey: COINBASE_SANDBOX_API_KEY,
      webhookSecret: COINBASE_SANDBOX_WEBHOOK_SECRET,
      sandboxPort: 8791,
    });
    expect(loadConfig(env({ COINBASE_COMMERCE_SANDBOX_PORT: '0' })).coinbase.sandboxPort).toBe(0);
    expect(loadConfig(env({ COINBASE_COMMERCE: 'off' })).coinbase.mode).toBe('off');
    const real = {
      COINBASE_COMMERCE_API_URL: 'https://api.commerce.coinbase.com',
      COINBASE_COMMERCE_API_KEY: 'a-real-api-key',
      COINBASE_COMMERCE_WEBHOOK_SECRET: 'a-real-shared-secret',
    };
    expect(loadConfig(env(real)).coinbase).toMatchObject({
      mode: 'external',
      apiUrl: 'https://api.commerce.coinbase.com',
      apiKey: 'a-real-api-key',
      webhookSecret: 'a-real-shared-secret',
    });
    expect(() => loadConfig(env({ ...real, COINBASE_COMMERCE_API_KEY: '' }))).toThrow(
      /COINBASE_COMMERCE_API_KEY/,
    );
    expect(() => loadConfig(env({ COINBASE_COMMERCE: 'maybe' }))).toThrow(/COINBASE_COMMERCE must be/);
  });

  it('NFM payments: off by default; embedded anvil, or a real network with its public RPC URL and name', () => {
    expect(loadConfig(env({})).token).toBeNull();
    expect(loadConfig(env({ NFM_PAYMENTS: 'on' })).token).toEqual({
      mode: 'embedded',
      nodePort: 8545,
      chainId: 31337,
      frrPerUsd: '10',
      chainName: 'Vitrine local (anvil)',
      publicRpcUrl: undefined,
    });
    const external = {
      NFM_PAYMENTS: 'on',
      EVM_RPC_URL: 'https://rpc.example.com/v1/secret-key',
      EVM_CHAIN_ID: '11155111',
      NFM_TOKEN_ADDRESS: `0x${'1'.repeat(40)}`,
      NFM_PAYMENTS_ADDRESS: `0x${'2'.repeat(40)}`,
    };
    expect(loadConfig(env(external)).token).toMatchObject({
      mode: 'external',
      chainId: 11155111,
      chainName: undefined,
      publicRpcUrl: undefined,
    });
    expect(
      loadConfig(
        env({ ...external, EVM_CHAIN_NAME: 'Sepolia', EVM_PUBLIC_RPC_URL: 'https://rpc.sepolia.org' }),
      ).token,
    ).toMatchObject({ chainName: 'Sepolia', publicRpcUrl: 'https://rpc.sepolia.org' });
    expect(() => loadConfig(env({ NFM_PAYMENTS: 'on', EVM_PUBLIC_RPC_URL: 'rpc.example.com' }))).toThrow(
      'EVM_PUBLIC_RPC_URL must be an http(s) URL',
    );
  });

  it('NFM price: a fixed rate by default, or an HTTP JSON endpoint with its field, cache and timeout', () => {
    const on = { NFM_PAYMENTS: 'on' };
    expect(loadConfig(env({ ...on, NFM_FRR_PER_USD: '12.5' })).token).toMatchObject({ frrPerUsd: '12.5' });
    expect(loadConfig(env(on)).token!.price).toBeUndefined();
    expect(loadConfig(env({ ...on, NFM_PRICE_URL: 'https://prices.example.com/nfm' })).token!.price).toEqual({
      url: 'https://prices.example.com/nfm',
      field: 'frrPerUsd',
      cacheMs: 60_000,
      timeoutMs: 5000,
    });
    expect(
      loadConfig(
        env({
          ...on,
          NFM_PRICE_URL: 'http://127.0.0.1:9000/rates',
          NFM_PRICE_FIELD: 'data.rates.FRR',
          NFM_PRICE_CACHE_SECONDS: '10',
          NFM_PRICE_TIMEOUT_MS: '2000',
        }),
      ).token!.price,
    ).toEqual({
      url: 'http://127.0.0.1:9000/rates',
      field: 'data.rates.FRR',
      cacheMs: 10_000,
      timeoutMs: 2000,
    });
    for (const [vars, message] of [
      [{ NFM_PRICE_URL: 'prices.example.com' }, 'NFM_PRICE_URL must be an http(s) URL'],
      [{ NFM_PRICE_URL: 'https://p.example.com', NFM_FRR_PER_USD: '10' }, 'set one'],
      [{ NFM_PRICE_URL: 'https://p.example.com', NFM_PRICE_FIELD: 'data..x' }, 'NFM_PRICE_FIELD'],
      [{ NFM_PRICE_URL: 'https://p.example.com', NFM_PRICE_TIMEOUT_MS: '10' }, 'NFM_PRICE_TIMEOUT_MS'],
    ] as const)
      expect(() => loadConfig(env({ ...on, ...vars })), JSON.stringify(vars)).toThrow(message);
  });

  it('sends email to the embedded Mailpit (SMTP 127.0.0.1:1025, inbox :8025) by default, to SMTP_URL once given, or nowhere with MAIL=off', () => {
    expect(loadConfig(env({})).mail).toEqual({
      mode: 'embedded',
      smtpUrl: undefined,
      from: 'Vitrine <no-reply@localhost>',
      mailpitSmtpPort: 1025,
      mailpitUiPort: 8025,
    });
    expect(
      loadConfig(
        env({ SMTP_URL: 'smtps://user:pass@mail.example.com:465', MAIL_FROM: 'Shop <shop@example.com>' }),
      ).mail,
    ).toMatchObject({
      mode: 'smtp',
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      from: 'Shop <shop@example.com>',
    });
    expect(loadConfig(env({ PUBLIC_URL: 'https://vitrine.example' })).mail.from).toBe(
      'Vitrine <no-reply@vitrine.example>',
    );
    expect(loadConfig(env({ MAIL: 'off', SMTP_URL: 'smtp://mail.example.com' })).mail).toMatchObject({
      mode: 'off',
      smtpUrl: undefined,
    });
    expect(loadConfig(env({ MAILPIT_SMTP_PORT: '2025', MAILPIT_UI_PORT: '9025' })).mail).toMatchObject({
      mailpitSmtpPort: 2025,
      mailpitUiPort: 9025,
    });
  });

  it('generates a JWT secret once and keeps it in <dataDir>/jwt-secret', () => {
    const first = loadConfig(env({})).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe(first);
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(loadConfig(env({})).jwtSecret).toBe(first);
  });

  it.each([
    [{ PORT: 'http' }, 'PORT must be an integer from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET must be at least 32 characters'],
    [{ JWT_TTL_SECONDS: '5' }, 'JWT_TTL_SECONDS must be an integer'],
    [{ MAIL: 'maybe' }, 'MAIL must be embedded, smtp or off'],
    [{ MAIL: 'smtp' }, 'SMTP_URL is required with MAIL=smtp'],
    [{ SMTP_URL: 'https://mail.example.com' }, 'SMTP_URL must be an smtp:// or smtps:// URL'],
    [{ MAIL_FROM: 'a@example.com, b@example.com' }, 'MAIL_FROM must be one address'],
    [{ MAIL_FROM: 'Vitrine' }, 'MAIL_FROM must be one address'],
    [{ MAILPIT_UI_PORT: '0' }, 'MAILPIT_UI_PORT must be an integer from 1 to 65535'],
  ])('refuses %o', (vars, message) => {
    expect(() => loadConfig(env(vars))).toThrow(message);
  });
});

describe('VITRINE_EMBEDDED', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-embedded-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = (vars: Record<string, string>) => ({ VITRINE_DATA_DIR: dataDir, ...vars });
  /** The problems a refused configuration names, one per entry. */
  const problems = (vars: Record<string, string>) => {
    try {
      loadConfig(env(vars));
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).problems;
    }
    throw new Error('the configuration was accepted');
  };
  /** A public Flow network with Vitrine's contracts and an admin key of its own. */
  const testnet = {
    FLOW_NETWORK: 'testnet',
    FLOW_VITRINE_ADDRESS: '0x0000000000000a01',
    FLOW_FUSD_ADDRESS: '0x0000000000000a01',
    FLOW_VITRINE_BLUEPRINTS_ADDRESS: '0x0000000000000a01',
    FLOW_VITRINE_CHECKOUT_ADDRESS: '0x0000000000000a01',
    FLOW_VITRINE_OFFERS_ADDRESS: '0x0000000000000a01',
    FLOW_ADMIN_ADDRESS: '0x0000000000000a01',
    FLOW_ADMIN_PRIVATE_KEY: 'ab'.repeat(32),
  };
  const off = { VITRINE_EMBEDDED: 'off', JWT_SECRET: 'a-deployment-secret-of-forty-characters!', ...testnet };
  /** Every provider with settings of its own. */
  const providers = {
    CHECKOUT_COM_API_URL: 'https://api.checkout.com',
    CHECKOUT_COM_PUBLIC_KEY: 'pk_realrealrealrealrealrealrealreal',
    CHECKOUT_COM_SECRET_KEY: 'sk_realrealrealrealrealrealrealreal',
    CHECKOUT_COM_WEBHOOK_KEY: 'a-real-webhook-key',
    COINBASE_COMMERCE_API_URL: 'https://api.commerce.coinbase.com',
    COINBASE_COMMERCE_API_KEY: 'a-real-api-key',
    COINBASE_COMMERCE_WEBHOOK_SECRET: 'a-real-shared-secret',
    WERT_ORIGIN: 'https://widget.wert.io',
    WERT_PARTNER_ID: '01GCRJZ1P7GP32304PZCS6RSPD',
    WERT_PRIVATE_KEY: 'cd'.repeat(32),
    WERT_API_URL: 'https://partner.wert.io',
    WERT_API_KEY: 'a-real-wert-key',
    VERIFF_API_URL: 'https://stationapi.veriff.com',
    VERIFF_API_KEY: 'a-real-veriff-key',
    VERIFF_SHARED_SECRET: 'a-real-veriff-secret',
    NFM_PAYMENTS: 'on',
    EVM_RPC_URL: 'https://rpc.example.com',
    EVM_CHAIN_ID: '11155111',
    NFM_TOKEN_ADDRESS: `0x${'1'.repeat(40)}`,
    NFM_PAYMENTS_ADDRESS: `0x${'2'.repeat(40)}`,
  };
  const published = [
    SANDBOX_PUBLIC_KEY,
    SANDBOX_SECRET_KEY,
    SANDBOX_WEBHOOK_KEY,
    COINBASE_SANDBOX_API_KEY,
    COINBASE_SANDBOX_WEBHOOK_SECRET,
    WERT_SANDBOX_PARTNER_ID,
    WERT_SANDBOX_PRIVATE_KEY,
    WERT_SANDBOX_API_KEY,
    VERIFF_SANDBOX_API_KEY,
    VERIFF_SANDBOX_SHARED_SECRET,
    EMULATOR_SERVICE_KEY,
    ANVIL_PAYMENTS_KEY.slice(2),
  ];

  it('on, the default (unset), runs the embedded world: emulator, every sandbox with its published keys, the seed', () => {
    for (const vars of [{}, { VITRINE_EMBEDDED: 'on' }] as Record<string, string>[]) {
      const config = loadConfig(env(vars));
      expect(config).toMatchObject({
        flowEmulator: 'embedded',
        seed: true,
        devTools: true,
        checkoutCom: { mode: 'embedded', webhookSignatureKey: SANDBOX_WEBHOOK_KEY },
        coinbase: { mode: 'embedded', webhookSecret: COINBASE_SANDBOX_WEBHOOK_SECRET },
        wert: { mode: 'embedded', privateKey: WERT_SANDBOX_PRIVATE_KEY },
        veriff: { mode: 'embedded', sharedSecret: VERIFF_SANDBOX_SHARED_SECRET },
      });
      expect(config.applePay).not.toBeNull();
      expect(config.googlePay).not.toBeNull();
      expect(loadConfig(env({ ...vars, NFM_PAYMENTS: 'on' })).token).toMatchObject({ mode: 'embedded' });
    }
    expect(() => loadConfig(env({ VITRINE_EMBEDDED: 'maybe' }))).toThrow(
      'VITRINE_EMBEDDED must be on or off',
    );
  });

  it('off: nothing embedded; a provider without settings is off, and no published key is in the config', () => {
    const own = mkdtempSync(join(tmpdir(), 'vitrine-deployment-'));
    try {
      const config = loadConfig({ ...off, VITRINE_DATA_DIR: own });
      expect(config).toMatchObject({
        flowEmulator: 'external',
        seed: false,
        devTools: false,
        checkoutCom: { mode: 'off' },
        applePay: null,
        googlePay: null,
        coinbase: { mode: 'off' },
        wert: { mode: 'off' },
        veriff: { mode: 'off' },
        token: null,
        // No relay configured: emails wait in the outbox table.
        mail: { mode: 'off', smtpUrl: undefined },
      });
      expect(
        loadConfig({ ...off, VITRINE_DATA_DIR: own, SMTP_URL: 'smtps://u:p@mail.example.com' }).mail,
      ).toMatchObject({ mode: 'smtp', smtpUrl: 'smtps://u:p@mail.example.com' });
      const text = JSON.stringify(config).toLowerCase();
      for (const value of published) expect(text).not.toContain(value.toLowerCase());
      // The JWT secret is the deployment's own: none is generated into the data directory.
      expect(existsSync(join(own, 'jwt-secret'))).toBe(false);
      // FLOW_EMULATOR=off runs without a chain, and then needs no Flow settings.
      expect(
        loadConfig({ VITRINE_EMBEDDED: 'off', JWT_SECRET: off.JWT_SECRET, FLOW_EMULATOR: 'off' })
          .flowEmulator,
      ).toBe('off');
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('off: a provider with all its settings is the real one (wallets by their own settings)', () => {
    const config = loadConfig(env({ ...off, ...providers }));
    expect(config).toMatchObject({
      checkoutCom: {
        mode: 'external',
        apiUrl: 'https://api.checkout.com',
        webhookSignatureKey: 'a-real-webhook-key',
      },
      applePay: null,
      googlePay: null,
      coinbase: { mode: 'external', webhookSecret: 'a-real-shared-secret' },
      wert: {
        mode: 'remote',
        origin: 'https://widget.wert.io',
        scAddress: '0x0000000000000a01',
        network: 'flow-testnet',
      },
      veriff: { mode: 'external', sharedSecret: 'a-real-veriff-secret' },
      token: { mode: 'external', rpcUrl: 'https://rpc.example.com', chainId: 11155111 },
    });
    expect(
      loadConfig(env({ ...off, ...providers, GOOGLE_PAY_MERCHANT_ID: 'BCR2DN4T' })).googlePay,
    ).toMatchObject({
      merchantId: 'BCR2DN4T',
    });
  });

  it('off: partly configured providers, the JWT secret and the chain are all named in one refusal', () => {
    expect(
      problems({
        VITRINE_EMBEDDED: 'off',
        CHECKOUT_COM_SECRET_KEY: 'sk_realrealrealrealrealrealrealreal',
        COINBASE_COMMERCE_API_KEY: 'a-real-api-key',
        WERT_PARTNER_ID: '01GCRJZ1P7GP32304PZCS6RSPD',
        VERIFF_API_URL: 'https://stationapi.veriff.com',
        NFM_PAYMENTS: 'on',
      }),
    ).toEqual([
      'JWT_SECRET is required with VITRINE_EMBEDDED=off (at least 32 characters, the same on every instance)',
      'CHECKOUT_COM_API_URL is required with CHECKOUT_COM=external',
      'CHECKOUT_COM_PUBLIC_KEY is required with CHECKOUT_COM=external',
      'CHECKOUT_COM_WEBHOOK_KEY is required with CHECKOUT_COM=external',
      'COINBASE_COMMERCE_API_URL is required with COINBASE_COMMERCE=external',
      'COINBASE_COMMERCE_WEBHOOK_SECRET is required with COINBASE_COMMERCE=external',
      'WERT_ORIGIN is required with WERT=remote',
      'WERT_PRIVATE_KEY is required with WERT=remote',
      'WERT_API_URL is required with WERT=remote',
      'WERT_API_KEY is required with WERT=remote',
      'WERT_SC_ADDRESS or FLOW_ADMIN_ADDRESS is required for the on-ramp',
      'EVM_RPC_URL is required with NFM_PAYMENTS=on (VITRINE_EMBEDDED=off starts no EVM node)',
      'EVM_CHAIN_ID is required with NFM_PAYMENTS=on (VITRINE_EMBEDDED=off starts no EVM node)',
      'NFM_TOKEN_ADDRESS is required with NFM_PAYMENTS=on (VITRINE_EMBEDDED=off starts no EVM node)',
      'NFM_PAYMENTS_ADDRESS is required with NFM_PAYMENTS=on (VITRINE_EMBEDDED=off starts no EVM node)',
      'VERIFF_API_KEY is required with VERIFF=external',
      'VERIFF_SHARED_SECRET is required with VERIFF=external',
      'FLOW_NETWORK must be testnet or mainnet with VITRINE_EMBEDDED=off (or FLOW_EMULATOR=off: no chain)',
    ]);
  });

  it('off: the chain is a public network with all its settings, never an emulator', () => {
    const { FLOW_NETWORK: _, ...settings } = off;
    expect(problems({ ...settings, FLOW_NETWORK: 'emulator' })).toEqual([
      'FLOW_NETWORK must be testnet or mainnet with VITRINE_EMBEDDED=off (or FLOW_EMULATOR=off: no chain)',
    ]);
    expect(problems({ ...off, FLOW_EMULATOR: 'embedded' })).toEqual([
      'FLOW_EMULATOR=embedded starts the Flow emulator: not with VITRINE_EMBEDDED=off',
    ]);
    expect(
      problems({ VITRINE_EMBEDDED: 'off', JWT_SECRET: off.JWT_SECRET, FLOW_NETWORK: 'mainnet' }),
    ).toEqual([
      'FLOW_NETWORK=mainnet needs FLOW_VITRINE_ADDRESS, FLOW_FUSD_ADDRESS, FLOW_VITRINE_BLUEPRINTS_ADDRESS, FLOW_VITRINE_CHECKOUT_ADDRESS, FLOW_VITRINE_OFFERS_ADDRESS, FLOW_ADMIN_ADDRESS, FLOW_ADMIN_PRIVATE_KEY',
    ]);
  });

  it("off: a key, secret or id published in this repository is refused by its setting's name", () => {
    expect(
      problems({
        ...off,
        ...providers,
        CHECKOUT_COM_PUBLIC_KEY: SANDBOX_PUBLIC_KEY,
        CHECKOUT_COM_SECRET_KEY: SANDBOX_SECRET_KEY,
        CHECKOUT_COM_WEBHOOK_KEY: SANDBOX_WEBHOOK_KEY,
        COINBASE_COMMERCE_API_KEY: COINBASE_SANDBOX_API_KEY,
        COINBASE_COMMERCE_WEBHOOK_SECRET: COINBASE_SANDBOX_WEBHOOK_SECRET,
        WERT_PARTNER_ID: WERT_SANDBOX_PARTNER_ID,
        // Another spelling of the same key is the same key.
        WERT_PRIVATE_KEY: `0x${WERT_SANDBOX_PRIVATE_KEY.toUpperCase()}`,
        WERT_API_KEY: WERT_SANDBOX_API_KEY,
        VERIFF_API_KEY: VERIFF_SANDBOX_API_KEY,
        VERIFF_SHARED_SECRET: VERIFF_SANDBOX_SHARED_SECRET,
        NFM_PAYMENTS_PRIVATE_KEY: ANVIL_PAYMENTS_KEY,
        FLOW_ADMIN_PRIVATE_KEY: EMULATOR_SERVICE_KEY,
      }),
    ).toEqual([
      "CHECKOUT_COM_PUBLIC_KEY is the embedded card sandbox's published public key",
      "CHECKOUT_COM_SECRET_KEY is the embedded card sandbox's published secret key",
      "CHECKOUT_COM_WEBHOOK_KEY is the embedded card sandbox's published webhook key",
      "COINBASE_COMMERCE_API_KEY is the embedded crypto sandbox's published API key",
      "COINBASE_COMMERCE_WEBHOOK_SECRET is the embedded crypto sandbox's published webhook secret",
      "WERT_PARTNER_ID is the embedded on-ramp sandbox's published partner id",
      "WERT_PRIVATE_KEY is the embedded on-ramp sandbox's published private key",
      "WERT_API_KEY is the embedded on-ramp sandbox's published API key",
      "VERIFF_API_KEY is the embedded identity sandbox's published API key",
      "VERIFF_SHARED_SECRET is the embedded identity sandbox's published shared secret",
      "NFM_PAYMENTS_PRIVATE_KEY is the embedded EVM node's published dev account key",
      "FLOW_ADMIN_PRIVATE_KEY is the embedded Flow emulator's published service key",
    ]);
    // A published secret set for another provider is refused too.
    expect(problems({ ...off, ...providers, VERIFF_SHARED_SECRET: COINBASE_SANDBOX_WEBHOOK_SECRET })).toEqual(
      ["VERIFF_SHARED_SECRET is the embedded crypto sandbox's published webhook secret"],
    );
  });

  it('off: asking for something embedded is refused by name', () => {
    expect(
      problems({
        ...off,
        CHECKOUT_COM: 'embedded',
        COINBASE_COMMERCE: 'embedded',
        WERT: 'embedded',
        VERIFF: 'embedded',
        MAIL: 'embedded',
        VITRINE_SEED: 'on',
        VITRINE_CRASH_AT: 'captured',
      }),
    ).toEqual([
      'VITRINE_SEED=on seeds the demo world and its published logins: not with VITRINE_EMBEDDED=off',
      'VITRINE_CRASH_AT is for crash tests, not production',
      'CHECKOUT_COM=embedded starts a sandbox: not with VITRINE_EMBEDDED=off',
      'COINBASE_COMMERCE=embedded starts a sandbox: not with VITRINE_EMBEDDED=off',
      'WERT=embedded starts a sandbox: not with VITRINE_EMBEDDED=off',
      'VERIFF=embedded starts a sandbox: not with VITRINE_EMBEDDED=off',
      'MAIL=embedded starts a sandbox: not with VITRINE_EMBEDDED=off',
    ]);
  });

  it('on: a provider may still be pointed at a real endpoint, with any key', () => {
    expect(loadConfig(env({ ...providers, CHECKOUT_COM_WEBHOOK_KEY: SANDBOX_WEBHOOK_KEY }))).toMatchObject({
      checkoutCom: { mode: 'external', webhookSignatureKey: SANDBOX_WEBHOOK_KEY },
      veriff: { mode: 'external' },
    });
  });
});

describe('media storage (STORAGE, S3_*, MEDIA_PUBLIC_URL)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-storage-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const off = {
    VITRINE_EMBEDDED: 'off',
    JWT_SECRET: 'a-deployment-secret-of-forty-characters!',
    FLOW_EMULATOR: 'off',
  };
  const load = (vars: Record<string, string>) => loadConfig({ VITRINE_DATA_DIR: dataDir, ...vars });
  const problems = (vars: Record<string, string>) => {
    try {
      load(vars);
    } catch (err) {
      return (err as ConfigError).problems;
    }
    throw new Error('the configuration was accepted');
  };
  const bucket = {
    S3_ENDPOINT: 'https://objects.example.com/',
    S3_BUCKET: 'vitrine-media-prod',
    S3_ACCESS_KEY_ID: 'AKIAREALREALREAL',
    S3_SECRET_ACCESS_KEY: 'a-real-secret-access-key',
  };

  it('is the data directory by default, in both worlds', () => {
    expect(load({}).storage).toEqual({ kind: 'local' });
    expect(load(off).storage).toEqual({ kind: 'local' });
    expect(load({ STORAGE: 'local', S3_BUCKET: 'ignored-bucket' }).storage).toEqual({ kind: 'local' });
  });

  it('is a bucket with STORAGE=s3 or once S3_BUCKET is set: its endpoint, region (us-east-1) and keys', () => {
    for (const vars of [bucket, { ...bucket, STORAGE: 's3' }, { ...off, ...bucket }]) {
      expect(load(vars)).toMatchObject({
        storage: {
          kind: 's3',
          s3: {
            endpoint: 'https://objects.example.com',
            bucket: 'vitrine-media-prod',
            region: 'us-east-1',
            accessKeyId: 'AKIAREALREALREAL',
            secretAccessKey: 'a-real-secret-access-key',
          },
        },
        mediaPublicUrl: undefined,
      });
    }
    // A deployment without an endpoint uses S3 itself, with the AWS SDK's own credentials.
    expect(load({ ...off, S3_BUCKET: 'on-aws', S3_REGION: 'eu-west-1' }).storage).toEqual({
      kind: 's3',
      s3: {
        bucket: 'on-aws',
        region: 'eu-west-1',
        endpoint: undefined,
        accessKeyId: undefined,
        secretAccessKey: undefined,
      },
    });
    expect(load({ ...bucket, MEDIA_PUBLIC_URL: 'https://cdn.example.com/media/' }).mediaPublicUrl).toBe(
      'https://cdn.example.com/media',
    );
  });

  it('embedded: STORAGE=s3 without S3_ENDPOINT is a SeaweedFS bucket the server starts', () => {
    expect(load({ STORAGE: 's3' }).storage).toEqual({ kind: 's3', embedded: { bucket: 'vitrine-media' } });
    expect(load({ S3_BUCKET: 'my-media' }).storage).toEqual({ kind: 's3', embedded: { bucket: 'my-media' } });
  });

  it('refuses what cannot work, each setting by name', () => {
    expect(problems({ STORAGE: 'disk' })).toEqual(['STORAGE must be local or s3']);
    expect(problems({ ...off, STORAGE: 's3' })).toEqual(['S3_BUCKET is required with STORAGE=s3']);
    expect(problems({ ...bucket, S3_BUCKET: 'Not_A_Bucket' })).toEqual([
      'S3_BUCKET must be a bucket name (3–63 lower-case letters, digits, dots and dashes)',
    ]);
    expect(problems({ ...bucket, S3_SECRET_ACCESS_KEY: '' })).toEqual([
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together (or neither: the AWS SDK’s own credentials)',
    ]);
    expect(problems({ ...bucket, S3_ENDPOINT: 'objects.example.com' })).toEqual([
      'S3_ENDPOINT must be an http or https URL',
    ]);
    expect(problems({ ...bucket, MEDIA_PUBLIC_URL: 'https://cdn.example.com/?v=1' })).toEqual([
      'MEDIA_PUBLIC_URL must be an http or https URL without a query',
    ]);
    // In front of the app's own /media a CDN caches it as it is: the redirect would loop.
    expect(problems({ MEDIA_PUBLIC_URL: 'https://cdn.example.com' })).toEqual([
      'MEDIA_PUBLIC_URL is for STORAGE=s3 (a bucket browsers reach)',
    ]);
    // The embedded SeaweedFS's published key opens nothing of a deployment.
    expect(problems({ ...off, ...bucket, S3_SECRET_ACCESS_KEY: SEAWEED_SECRET_ACCESS_KEY })).toEqual([
      "S3_SECRET_ACCESS_KEY is the embedded object store's (SeaweedFS) published secret key",
    ]);
  });
});
