import http from 'node:http';
import https from 'node:https';

/**
 * Apple Pay merchant validation: asks Apple's gateway for a merchant session (Requesting an Apple
 * Pay payment session, https://developer.apple.com/documentation/applepayontheweb/requesting-an-apple-pay-payment-session):
 * `POST {validationURL}` with `{ merchantIdentifier, displayName, initiative: 'web',
 * initiativeContext: <the page's domain> }` over mutual TLS with the merchant identity certificate.
 * The answer is opaque, single use and valid for 5 minutes: it goes back to the browser unchanged.
 *
 * The caller checks that the validationURL is one of Apple's hosts (domain/schemas/applepay.ts);
 * `gatewayUrl`, when set, is asked instead (the embedded card sandbox plays Apple's gateway).
 */
export interface ApplePayGatewayOptions {
  merchantId: string;
  displayName: string;
  /** The fully qualified domain of the page (registered with Apple for the merchant). */
  initiativeContext: string;
  /** Where to ask instead of the validationURL. */
  gatewayUrl?: string;
  /**
   * The merchant identity certificate and its key (PEM), for mutual TLS; `ca` adds a trusted
   * certificate authority for the gateway (a stand-in gateway in tests; Apple's is publicly trusted).
   */
  tls?: { cert: string | Buffer; key: string | Buffer; ca?: string | Buffer };
  timeoutMs?: number;
}

export type ApplePayMerchantSessionJson = Record<string, unknown>;

/** The gateway answered with something other than a merchant session (HTTP status, Apple's message). */
export class ApplePayRefusedError extends Error {
  override name = 'ApplePayRefusedError';
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`Apple Pay gateway refused the merchant validation (${status}): ${detail}`);
  }
}

/** The gateway could not be reached (connection, TLS, timeout). */
export class ApplePayUnavailableError extends Error {
  override name = 'ApplePayUnavailableError';
}

const MAX_ANSWER_BYTES = 64 * 1024;

function post(
  url: URL,
  body: string,
  tls: ApplePayGatewayOptions['tls'],
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const options: https.RequestOptions = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      // Mutual TLS with the merchant identity certificate (SNI comes from the host name).
      ...(url.protocol === 'https:' && tls
        ? { cert: tls.cert, key: tls.key, ...(tls.ca ? { ca: tls.ca } : {}) }
        : {}),
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) res.destroy(new Error('answer too large'));
        else chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', (err) => reject(new ApplePayUnavailableError(err.message)));
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    request.on('error', (err) => reject(new ApplePayUnavailableError(err.message)));
    request.end(body);
  });
}

export interface ApplePayGateway {
  /** The merchant session for the validationURL, as the gateway answered it. */
  merchantSession(validationURL: string): Promise<ApplePayMerchantSessionJson>;
}

export function createApplePayGateway(options: ApplePayGatewayOptions): ApplePayGateway {
  const timeoutMs = options.timeoutMs ?? 15_000;
  return {
    async merchantSession(validationURL) {
      const target = new URL(options.gatewayUrl ?? validationURL);
      const body = JSON.stringify({
        merchantIdentifier: options.merchantId,
        displayName: options.displayName,
        initiative: 'web',
        initiativeContext: options.initiativeContext,
      });
      const { status, text } = await post(target, body, options.tls, timeoutMs);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (status !== 200 || typeof json !== 'object' || json === null || Array.isArray(json)) {
        const message = (json as { statusMessage?: unknown } | undefined)?.statusMessage;
        throw new ApplePayRefusedError(status, typeof message === 'string' ? message : text.slice(0, 200));
      }
      return json as ApplePayMerchantSessionJson;
    },
  };
}
