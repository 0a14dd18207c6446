import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The browser side of the on-ramp, for API tests: the official `@wert-io/widget-initializer` run
 * in a jsdom window (so the widget URL under test is the one the SDK builds, not a copy of its
 * rules), and the sandbox's widget page run in jsdom with its script, an opener that records the
 * messages the page posts, and `fetch` to the sandbox.
 */

const require = createRequire(import.meta.url);

/** jsdom (a dev dependency, the web tests' environment) has no bundled types: what is used of it. */
interface JsdomOptions {
  url?: string;
  runScripts?: 'dangerously' | 'outside-only';
  beforeParse?(window: Window & typeof globalThis): void;
}
const { JSDOM } = require('jsdom') as {
  JSDOM: new (html: string, options?: JsdomOptions) => { window: Window & typeof globalThis };
};
const initializerSource = readFileSync(require.resolve('@wert-io/widget-initializer/index.js'), 'utf8');
const initializerPackage = require('@wert-io/widget-initializer/package.json');

// biome-ignore lint/suspicious/noExplicitAny: the SDK's options are passed through as the browser would
type WidgetOptions = Record<string, any>;

/** The iframe `src` `new WertWidget(options).open()` creates, on a page at `pageUrl`. */
export function widgetUrl(options: WidgetOptions, pageUrl = 'http://localhost:3000/checkout'): string {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { url: pageUrl });
  try {
    const module: { exports: unknown } = { exports: {} };
    // The SDK's CommonJS build, with the jsdom window as its `window` and `document`.
    new Function('module', 'exports', 'require', 'window', 'document', initializerSource)(
      module,
      module.exports,
      (id: string) => {
        if (id === './package.json') return initializerPackage;
        throw new Error(`unexpected require ${id}`);
      },
      dom.window,
      dom.window.document,
    );
    const WertWidget = module.exports as new (o: WidgetOptions) => { open(): void };
    new WertWidget(options).open();
    const iframe = dom.window.document.querySelector('iframe');
    if (!iframe) throw new Error('the widget opened no iframe');
    return iframe.getAttribute('src')!;
  } finally {
    dom.window.close();
  }
}

export interface WidgetMessage {
  type: string;
  data?: Record<string, unknown>;
}

export interface OpenWidget {
  status: number;
  document: Document;
  /** The messages the page posted to its opener, in order. */
  messages: WidgetMessage[];
  /** Presses a button of the page (pay, fail, cancel, close). */
  press(action: 'pay' | 'fail' | 'cancel' | 'close'): void;
  /** The opener sends a message, as the initializer does after `loaded` (e.g. `extra`). */
  send(message: WidgetMessage): void;
  /** Resolves when a posted message matches (or rejects after `ms`). */
  waitFor(match: (m: WidgetMessage) => boolean, ms?: number): Promise<WidgetMessage>;
  close(): void;
}

/** Loads the widget page at `src` with its script, as the iframe would. */
export async function openWidget(src: string): Promise<OpenWidget> {
  const res = await fetch(src);
  const html = await res.text();
  const messages: WidgetMessage[] = [];
  // The opener: another window, whose postMessage records what the page sends it.
  const opener = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost:3000/' });
  Object.defineProperty(opener.window, 'postMessage', {
    value: (message: WidgetMessage) => messages.push(JSON.parse(JSON.stringify(message))),
  });
  const dom = new JSDOM(html, {
    url: src,
    runScripts: 'dangerously',
    beforeParse(window) {
      Object.defineProperty(window, 'opener', { value: opener.window });
      Object.defineProperty(window, 'fetch', {
        value: (input: string, init?: RequestInit) => fetch(new URL(String(input), src), init),
      });
    },
  });
  const { window } = dom;
  return {
    status: res.status,
    document: window.document,
    messages,
    press(action) {
      const form = window.document.getElementById('actions') as HTMLFormElement;
      const button = form.querySelector(`button[value="${action}"]`) as HTMLButtonElement;
      form.requestSubmit(button);
    },
    send(message) {
      window.dispatchEvent(new window.MessageEvent('message', { data: message, source: opener.window }));
    },
    async waitFor(match, ms = 10_000) {
      for (const end = Date.now() + ms; Date.now() < end; ) {
        const found = messages.find(match);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no such message among ${JSON.stringify(messages)}`);
    },
    close() {
      window.close();
      opener.window.close();
    },
  };
}
