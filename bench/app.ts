import { loadConfig } from '../server/config';

/** The product API's configuration for an in-process benchmark: in-memory PGlite, no chain, no seed. */
export const benchConfig = (dataDir: string) =>
  loadConfig({
    VITRINE_DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    FLOW_EMULATOR: 'off',
    VITRINE_SEED: 'off',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256',
  });
