import * as sdk from '@onflow/sdk';
import { httpTransport } from '@onflow/transport-http';
import { loadCadence } from './cadence';
import type { AccountKey, ChainConfig } from './config';
import { authorization } from './signer';

/**
 * A small Flow client over the access node's REST API, built on @onflow/sdk (interaction building,
 * RLP encoding, JSON-Cadence arguments and decoding) and @onflow/transport-http. It holds its own
 * access node and contract addresses instead of FCL's global config, so several clients (one per
 * emulator in tests) can live in one process.
 */

export type ArgBuilder = typeof sdk.arg;
export type ArgTypes = typeof sdk.t;
/** Arguments as FCL writes them: `(arg, t) => [arg('0x01', t.Address)]`. */
export type ArgsFn = (arg: ArgBuilder, t: ArgTypes) => ReturnType<ArgBuilder>[];

/** Cadence source given as a file under cadence/ (imports bound from the config) or as text. */
export type CadenceSource = string | { code: string };

export interface FlowEvent {
  type: string;
  transactionId: string;
  eventIndex: number;
  // biome-ignore lint/suspicious/noExplicitAny: decoded JSON-Cadence values
  data: Record<string, any>;
}

export interface SealedTransaction {
  id: string;
  events: FlowEvent[];
  /** Milliseconds from submission to seal as this client saw them. */
  sealMs: number;
}

export interface SendOptions {
  args?: ArgsFn;
  /** Proposer, payer and sole authorizer unless `payer` or `authorizers` say otherwise. */
  signer: AccountKey;
  payer?: AccountKey;
  /** The accounts whose `prepare` parameters the transaction has; default [signer]. */
  authorizers?: AccountKey[];
  /** Called with the transaction id after signing and before it is sent. */
  onTransactionId?: (id: string) => void | Promise<void>;
}

/** A transaction that the chain reverted or that did not seal in time. */
export class FlowTransactionError extends Error {
  constructor(
    message: string,
    readonly transactionId: string,
    /** The full error text of the chain, when it reported one. */
    readonly details?: string,
  ) {
    super(message);
    this.name = 'FlowTransactionError';
  }
}

/** A script or request that the access node refused. */
export class FlowRequestError extends Error {
  constructor(
    message: string,
    readonly statusCode?: number,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'FlowRequestError';
  }
}

/**
 * The line of a Cadence error that says what went wrong: a failed panic, assert or pre-condition
 * message, else the first `error:` line, else the text itself.
 */
export function cadenceErrorSummary(text: string): string {
  const lines = text.split('\n').map((l) => l.trim());
  const panic = lines.find((l) =>
    /^error: (panic|assertion failed|pre-condition failed|post-condition failed)/.test(l),
  );
  const first = panic ?? lines.find((l) => l.startsWith('error:'));
  return (first ?? text.trim().split('\n')[0] ?? text).replace(/^error:\s*/, '');
}

function requestError(err: unknown, what: string): Error {
  const e = err as { statusCode?: number; errorMessage?: string; message?: string };
  if (e && (e.statusCode !== undefined || e.errorMessage !== undefined)) {
    const details = e.errorMessage ?? e.message ?? String(err);
    return new FlowRequestError(`${what}: ${cadenceErrorSummary(details)}`, e.statusCode, details);
  }
  return err instanceof Error ? err : new Error(String(err));
}

const TX_STATUS_SEALED = 4;
const TX_STATUS_EXPIRED = 5;
const TX_STATUS_EXECUTED = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FlowClient {
  readonly sdk: ReturnType<typeof sdk.createSdkClient>;
  /** Per proposer key: the tail of the queue of transactions it proposes (see `send`). */
  private readonly proposerQueues = new Map<string, Promise<unknown>>();

  constructor(readonly config: ChainConfig) {
    this.sdk = sdk.createSdkClient({
      accessNodeUrl: config.accessNode,
      transport: httpTransport,
      computeLimit: config.computeLimit,
    });
  }

  /** The text of a Cadence source with its imports bound to this network. */
  code(source: CadenceSource): string {
    return typeof source === 'string' ? loadCadence(source, this.config.contracts) : source.code;
  }

  /** Runs a script and answers its decoded result. */
  async query<T>(source: CadenceSource, args?: ArgsFn): Promise<T> {
    const builders = [sdk.script(this.code(source)), sdk.args(args ? args(sdk.arg, sdk.t) : [])];
    try {
      return (await this.sdk.send(builders).then(this.sdk.decode)) as T;
    } catch (err) {
      throw requestError(err, `script ${typeof source === 'string' ? source : '(inline)'} failed`);
    }
  }

  /** The account with its keys and contracts (name → source). */
  async account(address: string): Promise<sdk.Account> {
    try {
      return await this.sdk.account(address);
    } catch (err) {
      throw requestError(err, `account ${address}`);
    }
  }

  /**
   * Signs and sends a transaction and answers its id once the chain has executed it (not yet
   * sealed). The proposer key's sequence number is read from the chain when the transaction is
   * built, so transactions proposed by one key are sent one at a time, each after the previous one
   * has executed; distinct keys run in parallel.
   */
  async send(source: CadenceSource, options: SendOptions): Promise<string> {
    const proposer = options.signer;
    const queueKey = `${proposer.address}/${proposer.keyIndex}`;
    const previous = this.proposerQueues.get(queueKey) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.sendNow(source, options));
    const tail = run.catch(() => undefined);
    this.proposerQueues.set(queueKey, tail);
    void tail.then(() => {
      if (this.proposerQueues.get(queueKey) === tail) this.proposerQueues.delete(queueKey);
    });
    return run;
  }

  private async sendNow(source: CadenceSource, options: SendOptions): Promise<string> {
    const proposer = authorization(options.signer);
    const payer = options.payer ? authorization(options.payer) : proposer;
    const authorizers = (options.authorizers ?? [options.signer]).map(authorization);
    const builders = [
      sdk.transaction(this.code(source)),
      sdk.args(options.args ? options.args(sdk.arg, sdk.t) : []),
      sdk.proposer(proposer),
      sdk.payer([payer]),
      sdk.authorizations(authorizers),
      sdk.limit(this.config.computeLimit),
    ];
    if (options.onTransactionId) {
      const report = options.onTransactionId;
      builders.push(sdk.voucherIntercept(async (voucher) => report(sdk.voucherToTxId(voucher))));
    }
    let id: string;
    try {
      // A sent transaction decodes to its id.
      id = (await this.sdk.send(builders).then(this.sdk.decode)) as string;
    } catch (err) {
      throw requestError(err, `transaction ${typeof source === 'string' ? source : '(inline)'} was refused`);
    }
    await this.waitFor(id, TX_STATUS_EXECUTED, this.config.sealTimeoutMs).catch(() => undefined);
    return id;
  }

  /**
   * Waits until the transaction is sealed and answers its events; throws FlowTransactionError when
   * it failed, expired or did not seal within `timeoutMs`.
   */
  async waitForSeal(
    id: string,
    timeoutMs = this.config.sealTimeoutMs,
  ): Promise<Omit<SealedTransaction, 'sealMs'>> {
    const status = await this.waitFor(id, TX_STATUS_SEALED, timeoutMs);
    if (status.errorMessage) {
      throw new FlowTransactionError(
        `transaction ${id} failed: ${cadenceErrorSummary(status.errorMessage)}`,
        id,
        status.errorMessage,
      );
    }
    return { id, events: status.events as FlowEvent[] };
  }

  /**
   * The transaction's status, or null when the access node does not know it (yet): it answers
   * UNKNOWN (or 404) for an id it never received.
   */
  async transactionStatus(id: string): Promise<sdk.TransactionStatus | null> {
    try {
      const status = (await this.sdk
        .send([sdk.getTransactionStatus(id)])
        .then(this.sdk.decode)) as sdk.TransactionStatus;
      // UNKNOWN is 0, or "" from the REST transport.
      return status.status ? status : null;
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return null;
      throw requestError(err, `status of ${id}`);
    }
  }

  /**
   * The transaction's status asked once: one request, no retries, answered within `timeoutMs`
   * (FlowRequestError otherwise); null when the access node does not know the id. Its events are
   * decoded as in `waitForSeal`.
   */
  async transactionStatusOnce(id: string, timeoutMs = 3000): Promise<sdk.TransactionStatus | null> {
    // The transport's own request retries a slow or failing node for minutes; this one gives up.
    const httpRequest = async (req: { hostname: string; path: string; method: string }) => {
      const res = await fetch(`${req.hostname.replace(/\/+$/, '')}${req.path}`, {
        method: req.method,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        throw Object.assign(new Error(text || res.statusText), {
          statusCode: res.status,
          errorMessage: text,
        });
      }
      return res.json();
    };
    try {
      const status = (await this.sdk
        .send([sdk.getTransactionStatus(id)], { httpRequest })
        .then(this.sdk.decode)) as sdk.TransactionStatus;
      return status.status ? status : null;
    } catch (err) {
      const e = err as { statusCode?: number; name?: string };
      // An id the node never saw: 404 (or 400) from an access node, UNKNOWN from the emulator.
      if (e.statusCode === 404 || e.statusCode === 400) return null;
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        throw new FlowRequestError(`status of ${id}: no answer within ${timeoutMs} ms`);
      }
      throw requestError(err, `status of ${id}`);
    }
  }

  private async waitFor(id: string, wanted: number, timeoutMs: number): Promise<sdk.TransactionStatus> {
    const deadline = Date.now() + timeoutMs;
    let delay = 50;
    for (;;) {
      // null: not known to the access node yet; keep polling until the deadline.
      const status = await this.transactionStatus(id);
      if (status) {
        if (status.errorMessage && status.status >= TX_STATUS_EXECUTED) return status;
        if (status.status >= wanted && status.status !== TX_STATUS_EXPIRED) return status;
        if (status.status === TX_STATUS_EXPIRED) {
          throw new FlowTransactionError(`transaction ${id} expired before it was sealed`, id);
        }
      }
      if (Date.now() + delay > deadline) {
        throw new FlowTransactionError(`transaction ${id} was not sealed within ${timeoutMs} ms`, id);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 1000);
    }
  }

  /** Sends a transaction and waits for its seal. */
  async transact(source: CadenceSource, options: SendOptions): Promise<SealedTransaction> {
    const started = Date.now();
    const id = await this.send(source, options);
    const sealed = await this.waitForSeal(id);
    return { ...sealed, sealMs: Date.now() - started };
  }

  /** The fully qualified type of an event of a contract, e.g. A.f8d6e0586b0a20c7.VitrineNFT.Minted. */
  eventType(contract: keyof ChainConfig['contracts'], event: string): string {
    return `A.${this.config.contracts[contract].replace(/^0x/, '')}.${contract}.${event}`;
  }
}

/** The events of `type` in a sealed transaction. */
export function eventsOf(tx: { events: FlowEvent[] }, type: string): FlowEvent['data'][] {
  return tx.events.filter((e) => e.type === type).map((e) => e.data);
}
