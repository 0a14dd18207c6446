import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
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
import { loadConfig } from '../../server/config';
import { databaseKind } from '../../server/db';

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
  ])('refuses %o', (vars, message) => {
    expect(() => loadConfig(env(vars))).toThrow(message);
  });
});
