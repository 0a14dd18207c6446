/**
 * @onflow/fcl 1.21 publishes no type declarations. These cover what the server and the chain tests
 * use; extend them as more of FCL is needed (one declaration of the module for the whole project).
 */
declare module '@onflow/fcl' {
  export interface CompositeSignature {
    f_type: 'CompositeSignature';
    f_vsn: '1.0.0';
    addr: string;
    keyId: number;
    signature: string;
  }

  export interface AccountProofData {
    address: string;
    /** Hex, at least 32 bytes. */
    nonce: string;
    signatures: CompositeSignature[];
  }

  export interface VerifyOptions {
    /** Where FCLCrypto lives; FCL knows it only for testnet and mainnet. */
    fclCryptoContract?: string;
  }

  export interface ConfigApi {
    put(key: string, value: unknown): ConfigApi;
    get<T = unknown>(key: string, fallback?: T): Promise<T>;
  }

  export function config(values?: Record<string, unknown>): ConfigApi;

  export const AppUtils: {
    verifyAccountProof(appIdentifier: string, data: AccountProofData, opts?: VerifyOptions): Promise<boolean>;
    verifyUserSignatures(
      messageHex: string,
      signatures: CompositeSignature[],
      opts?: VerifyOptions,
    ): Promise<boolean>;
  };

  export const WalletUtils: {
    /** Hex of the RLP-encoded proof, prefixed with the account-proof domain tag unless told otherwise. */
    encodeAccountProof(
      data: { address: string; nonce: string; appIdentifier: string },
      includeDomainTag?: boolean,
    ): string;
  };
}
