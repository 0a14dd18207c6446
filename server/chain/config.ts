import { EMULATOR_SERVICE_ADDRESS, EMULATOR_SERVICE_KEY } from './emulator';

/**
 * Chain configuration, read from the environment (see docs/chain.md). Every value defaults to the
 * local emulator: the REST API on 127.0.0.1:8888, the contracts the emulator bootstraps, and
 * Vitrine's own contracts and admin on the service account. On testnet and mainnet the standard
 * contracts default to their public addresses, while Vitrine's contracts and the admin key must be
 * given.
 */

export const flowNetworks = ['emulator', 'testnet', 'mainnet'] as const;
export type FlowNetwork = (typeof flowNetworks)[number];

/** Contracts that Cadence sources import by name (`import "VitrineNFT"`). */
export const contractNames = [
  'NonFungibleToken',
  'MetadataViews',
  'ViewResolver',
  'Burner',
  'NFTStorefrontV2',
  'FungibleToken',
  'FungibleTokenMetadataViews',
  'FlowToken',
  'VitrineNFT',
  'FUSD',
  'FCLCrypto',
  'VitrineBlueprints',
  'VitrineCheckout',
  'VitrineOffers',
] as const;
export type ContractName = (typeof contractNames)[number];
export type ContractAddresses = Record<ContractName, string>;

/** Vitrine's own contracts, deployed by server/chain/deploy.ts (in this order). */
export const vitrineContracts = [
  'FUSD',
  'VitrineNFT',
  'FCLCrypto',
  'VitrineBlueprints',
  'VitrineCheckout',
  'VitrineOffers',
] as const;
export type VitrineContract = (typeof vitrineContracts)[number];

/** The environment variable naming each contract's address. */
export const contractEnv: Record<ContractName, string> = {
  NonFungibleToken: 'FLOW_NONFUNGIBLETOKEN_ADDRESS',
  MetadataViews: 'FLOW_METADATAVIEWS_ADDRESS',
  ViewResolver: 'FLOW_VIEWRESOLVER_ADDRESS',
  Burner: 'FLOW_BURNER_ADDRESS',
  NFTStorefrontV2: 'FLOW_NFTSTOREFRONTV2_ADDRESS',
  FungibleToken: 'FLOW_FUNGIBLETOKEN_ADDRESS',
  FungibleTokenMetadataViews: 'FLOW_FUNGIBLETOKENMETADATAVIEWS_ADDRESS',
  FlowToken: 'FLOW_FLOWTOKEN_ADDRESS',
  VitrineNFT: 'FLOW_VITRINE_ADDRESS',
  FUSD: 'FLOW_FUSD_ADDRESS',
  FCLCrypto: 'FLOW_FCLCRYPTO_ADDRESS',
  VitrineBlueprints: 'FLOW_VITRINE_BLUEPRINTS_ADDRESS',
  VitrineCheckout: 'FLOW_VITRINE_CHECKOUT_ADDRESS',
  VitrineOffers: 'FLOW_VITRINE_OFFERS_ADDRESS',
};

/** Where the emulator bootstraps the standard contracts; Vitrine's go on the service account. */
export const emulatorContracts: ContractAddresses = {
  NonFungibleToken: EMULATOR_SERVICE_ADDRESS,
  MetadataViews: EMULATOR_SERVICE_ADDRESS,
  ViewResolver: EMULATOR_SERVICE_ADDRESS,
  Burner: EMULATOR_SERVICE_ADDRESS,
  NFTStorefrontV2: EMULATOR_SERVICE_ADDRESS,
  FungibleToken: '0xee82856bf20e2aa6',
  FungibleTokenMetadataViews: '0xee82856bf20e2aa6',
  FlowToken: '0x0ae53cb6e3f42a79',
  VitrineNFT: EMULATOR_SERVICE_ADDRESS,
  FUSD: EMULATOR_SERVICE_ADDRESS,
  FCLCrypto: EMULATOR_SERVICE_ADDRESS,
  VitrineBlueprints: EMULATOR_SERVICE_ADDRESS,
  VitrineCheckout: EMULATOR_SERVICE_ADDRESS,
  VitrineOffers: EMULATOR_SERVICE_ADDRESS,
};

/** The public networks' standard contracts (Flow's core-contract tables); Vitrine's have no default. */
const publicContracts: Record<'testnet' | 'mainnet', Partial<ContractAddresses>> = {
  testnet: {
    NonFungibleToken: '0x631e88ae7f1d7c20',
    MetadataViews: '0x631e88ae7f1d7c20',
    ViewResolver: '0x631e88ae7f1d7c20',
    Burner: '0x9a0766d93b6608b7',
    NFTStorefrontV2: '0x2d55b98eb200daef',
    FungibleToken: '0x9a0766d93b6608b7',
    FungibleTokenMetadataViews: '0x9a0766d93b6608b7',
    FlowToken: '0x7e60df042a9c0868',
    FCLCrypto: '0x74daa6f9c7ef24b1',
  },
  mainnet: {
    NonFungibleToken: '0x1d7e57aa55817448',
    MetadataViews: '0x1d7e57aa55817448',
    ViewResolver: '0x1d7e57aa55817448',
    Burner: '0xf233dcee88fe0abe',
    NFTStorefrontV2: '0x4eb8a10cb9f87357',
    FungibleToken: '0xf233dcee88fe0abe',
    FungibleTokenMetadataViews: '0xf233dcee88fe0abe',
    FlowToken: '0x1654653399040a61',
    FCLCrypto: '0xb4b82a1c9d21d284',
  },
};

const defaultAccessNodes: Record<FlowNetwork, string> = {
  emulator: 'http://127.0.0.1:8888',
  testnet: 'https://rest-testnet.onflow.org',
  mainnet: 'https://rest-mainnet.onflow.org',
};

export type SignatureAlgorithm = 'ECDSA_P256' | 'ECDSA_secp256k1';
export type HashAlgorithm = 'SHA3_256' | 'SHA2_256';

/** An account key the server signs with. */
export interface AccountKey {
  address: string;
  /** Hex, 32 bytes. */
  privateKey: string;
  keyIndex: number;
  signatureAlgorithm: SignatureAlgorithm;
  hashAlgorithm: HashAlgorithm;
}

export interface ChainConfig {
  network: FlowNetwork;
  /** The access node's REST API. */
  accessNode: string;
  contracts: ContractAddresses;
  /** Holds Vitrine's contracts and their minters; pays for and signs admin transactions. */
  admin: AccountKey;
  /** Compute limit of every transaction and script. */
  computeLimit: number;
  /** How long to wait for a transaction to seal. */
  sealTimeoutMs: number;
  /**
   * Block height the event indexer starts from when it has no cursor yet (FLOW_INDEXER_START_HEIGHT):
   * on a public network, the height Vitrine's contracts were deployed at. Default: 0 on the emulator,
   * else the latest sealed height at first start.
   */
  indexerStartHeight?: number;
}

/** `0x` and 16 lower-case hex digits. */
export function normalizeAddress(raw: string): string {
  const hex = raw.trim().toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{1,16}$/.test(hex)) throw new Error(`not a Flow address: ${raw}`);
  return `0x${hex.padStart(16, '0')}`;
}

function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

function oneOf<T extends string>(
  name: string,
  raw: string | undefined,
  values: readonly T[],
  fallback: T,
): T {
  if (raw === undefined || raw === '') return fallback;
  if (!values.includes(raw as T)) throw new Error(`${name} must be one of ${values.join(', ')}`);
  return raw as T;
}

export function loadChainConfig(env: NodeJS.ProcessEnv = process.env): ChainConfig {
  const network = oneOf('FLOW_NETWORK', env.FLOW_NETWORK, flowNetworks, 'emulator');
  const defaults: Partial<ContractAddresses> =
    network === 'emulator' ? emulatorContracts : publicContracts[network];
  const contracts = {} as ContractAddresses;
  const missing: string[] = [];
  for (const name of contractNames) {
    const raw = env[contractEnv[name]] || defaults[name];
    if (raw) contracts[name] = normalizeAddress(raw);
    else missing.push(contractEnv[name]);
  }

  const emulator = network === 'emulator';
  const adminAddress = env.FLOW_ADMIN_ADDRESS || (emulator ? EMULATOR_SERVICE_ADDRESS : undefined);
  const adminKey = env.FLOW_ADMIN_PRIVATE_KEY || (emulator ? EMULATOR_SERVICE_KEY : undefined);
  if (!adminAddress) missing.push('FLOW_ADMIN_ADDRESS');
  if (!adminKey) missing.push('FLOW_ADMIN_PRIVATE_KEY');
  if (missing.length > 0) throw new Error(`FLOW_NETWORK=${network} needs ${missing.join(', ')}`);
  const privateKey = adminKey!.trim().toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{64}$/.test(privateKey)) throw new Error('FLOW_ADMIN_PRIVATE_KEY must be 32 bytes of hex');

  return {
    network,
    accessNode: (env.FLOW_ACCESS_NODE || defaultAccessNodes[network]).replace(/\/+$/, ''),
    contracts,
    admin: {
      address: normalizeAddress(adminAddress!),
      privateKey,
      keyIndex: positiveInteger('FLOW_ADMIN_KEY_INDEX', env.FLOW_ADMIN_KEY_INDEX, 0),
      signatureAlgorithm: oneOf(
        'FLOW_ADMIN_SIGNATURE_ALGORITHM',
        env.FLOW_ADMIN_SIGNATURE_ALGORITHM,
        ['ECDSA_P256', 'ECDSA_secp256k1'] as const,
        'ECDSA_P256',
      ),
      hashAlgorithm: oneOf(
        'FLOW_ADMIN_HASH_ALGORITHM',
        env.FLOW_ADMIN_HASH_ALGORITHM,
        ['SHA3_256', 'SHA2_256'] as const,
        'SHA3_256',
      ),
    },
    computeLimit: positiveInteger('FLOW_COMPUTE_LIMIT', env.FLOW_COMPUTE_LIMIT, 9999),
    sealTimeoutMs: positiveInteger('FLOW_SEAL_TIMEOUT_MS', env.FLOW_SEAL_TIMEOUT_MS, 120_000),
    ...(env.FLOW_INDEXER_START_HEIGHT
      ? { indexerStartHeight: positiveInteger('FLOW_INDEXER_START_HEIGHT', env.FLOW_INDEXER_START_HEIGHT, 0) }
      : {}),
  };
}

/**
 * The config for a local emulator at `accessNode` (tests, benchmarks, dev): defaults everywhere.
 * Vitrine's contracts may live elsewhere (`overrides`).
 */
export function emulatorChainConfig(accessNode: string, overrides: Partial<ChainConfig> = {}): ChainConfig {
  return { ...loadChainConfig({ FLOW_NETWORK: 'emulator', FLOW_ACCESS_NODE: accessNode }), ...overrides };
}
