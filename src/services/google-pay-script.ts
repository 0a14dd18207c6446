import type { PaymentsConfigJson } from '#domain/schemas/checkout';
import type { GooglePaymentsClient } from './wallet-requests';

/** Google's client library, loaded by the page that pays (Google Pay API for web). */
export const GOOGLE_PAY_SCRIPT = 'https://pay.google.com/gp/p/js/pay.js';
/** How long the payment methods wait for Google's script before going on without Google Pay. */
export const GOOGLE_PAY_SCRIPT_TIMEOUT_MS = 5_000;

/**
 * Where this page's Google `PaymentsClient` comes from: none when Google Pay is off; the stand-in
 * where the card provider is the embedded sandbox (its tokens are the sandbox's test format, which
 * real Google Pay cannot make); else Google's own script (TEST or PRODUCTION with Checkout.com).
 */
export function googlePaySource(c: PaymentsConfigJson): 'off' | 'stand-in' | 'script' {
  if (!c.googlePay) return 'off';
  return c.walletStandIns ? 'stand-in' : 'script';
}

const scripts = new Map<string, Promise<void>>();

/**
 * Adds `<script async src>` to the document once and settles when it has loaded (or failed: then it
 * is removed, and a later call tries again).
 */
export function loadScript(src: string): Promise<void> {
  const known = scripts.get(src);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener(
      'error',
      () => {
        scripts.delete(src);
        script.remove();
        reject(new Error(`Unable to load ${src}`));
      },
      { once: true },
    );
    document.head.append(script);
  });
  scripts.set(src, loading);
  return loading;
}

/** What a wallet service needs of Google Pay: Google's script, loaded once, and the page's client. */
export function googlePayLoader(load: (src: string) => Promise<void>, scriptTimeoutMs: number) {
  /**
   * Google's script, loaded when Google Pay is first considered (never where it is off or played by
   * the stand-in); false when it could not load in time.
   */
  let googleScript: Promise<boolean> | null = null;
  const loadGoogle = (c: PaymentsConfigJson): Promise<boolean> => {
    if (googlePaySource(c) !== 'script') return Promise.resolve(true);
    if (window.google?.payments?.api?.PaymentsClient) return Promise.resolve(true);
    googleScript ??= new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), scriptTimeoutMs);
      load(GOOGLE_PAY_SCRIPT).then(
        () => {
          clearTimeout(timer);
          resolve(!!window.google?.payments?.api?.PaymentsClient);
        },
        () => {
          clearTimeout(timer);
          resolve(false);
        },
      );
    }).then((loaded) => {
      // A failed load may be tried again by the next checkout.
      if (!loaded) googleScript = null;
      return loaded;
    });
    return googleScript;
  };
  /** One PaymentsClient per page, as Google advises; null when Google Pay is off or not loaded. */
  let client: { environment: string; client: GooglePaymentsClient } | null = null;
  const googleClient = (c: PaymentsConfigJson): GooglePaymentsClient | null => {
    const PaymentsClient = window.google?.payments?.api?.PaymentsClient;
    if (!PaymentsClient || !c.googlePay) return null;
    const { environment } = c.googlePay;
    if (client?.environment !== environment)
      client = { environment, client: new PaymentsClient({ environment }) };
    return client.client;
  };

  return { loadGoogle, googleClient };
}
