import { checkTransaction, ufix64 } from './actions';
import { type FlowClient, type FlowEvent, FlowRequestError, FlowTransactionError } from './client';
import { normalizeAddress } from './config';

/**
 * The platform's treasury: FUSD paid to buyers from the admin account's vault (crypto top-ups,
 * refunds of crypto payments credited as FUSD) with transactions/transfer_fusd.cdc.
 */

/** Where the caller keeps the transaction id of each transfer (e.g. a column of its payment row). */
export interface FusdSendStore {
  get(key: string): Promise<{ transactionId: string } | null>;
  save(key: string, transactionId: string): Promise<void>;
}

export interface FusdSendRequest {
  /** The recipient's Flow address; it needs an FUSD vault. */
  to: string;
  /** Whole cents, one FUSD per dollar: 1250 sends 12.50 FUSD. */
  cents: number;
  /** The payment this transfer settles; retries carry the same key. */
  key: string;
}

export interface FusdSendOptions {
  /**
   * How long a stored transaction id that the access node does not know is re-checked before the
   * transfer is sent anew (an access node behind a load balancer may not have seen a transaction
   * another node received a moment ago). Default 10 s.
   */
  unknownGraceMs?: number;
}

/** The chain refused the transfer (the recipient has no FUSD vault, the treasury is short, …). */
export class FusdSendError extends Error {
  override name = 'FusdSendError';
  constructor(
    message: string,
    readonly key: string,
    /** The refused transaction, when it reached the chain. */
    readonly transactionId?: string,
    /** The chain's full error text. */
    readonly details?: string,
  ) {
    super(message);
  }
}

/** Integer cents as a UFix64 FUSD amount, exactly: 1250 → "12.50000000". */
export function centsToUfix64(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new TypeError(`not an amount of cents: ${cents}`);
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, '0');
  return ufix64(`${whole}.${fraction}000000`);
}

const inFlight = new Map<string, { transfer: Transfer; attempt: Promise<{ transactionId: string }> }>();

/**
 * Sends `cents / 100` FUSD from the treasury (`client.config.admin`) to `to`, once per `key`.
 *
 * - No id stored for the key: the transfer is signed, its id saved with `store.save` before the
 *   transaction leaves (a failing save sends nothing), then sent and awaited until sealed.
 * - An id stored: the access node is asked about it. Sealed and successful → that transfer is the
 *   answer, nothing is sent. Pending → its seal is awaited. Reverted or expired → sent anew (and
 *   the new id saved). Unknown to the node → re-checked for `unknownGraceMs`, then sent anew: a
 *   process that stopped after saving the id and before sending leaves such an id behind.
 * - Concurrent calls with one key in this process share one attempt.
 *
 * Throws `FusdSendError` when the chain refuses the transfer (the recipient has no FUSD vault,
 * the treasury's balance is short, the access node rejects the transaction): mark the payment
 * SEND_FUSD_FAILED. Any other error (store, network, a seal that did not come in time) leaves the
 * outcome open: call again with the same key, which resumes rather than pays twice.
 *
 * Remaining window: saving the id before sending closes the one of a crash between the send and the
 * save, but an id is judged by the one access node asked. Should a transaction that did reach the
 * chain stay unknown to that node beyond `unknownGraceMs` (e.g. another node behind a load
 * balancer that has not seen it yet), the retry sends a second transfer. Flow's proposal-key
 * sequence numbers make one of the two fail as long as the first has not executed when the second
 * is built, but not once it has; a second FUSD payment then remains possible, so keep the grace
 * longer than the access node's propagation delay.
 */
export async function sendFusd(
  client: FlowClient,
  request: FusdSendRequest,
  store: FusdSendStore,
  options: FusdSendOptions = {},
): Promise<{ transactionId: string }> {
  if (!request.key) throw new TypeError('sendFusd: key is required');
  if (!Number.isSafeInteger(request.cents) || request.cents <= 0) {
    throw new TypeError(`sendFusd: cents must be a positive integer, not ${request.cents}`);
  }
  const to = normalizeAddress(request.to);
  const amount = centsToUfix64(request.cents);
  const flightKey = `${client.config.accessNode}\n${request.key}`;
  const running = inFlight.get(flightKey);
  if (running) {
    if (running.transfer.to !== to || running.transfer.amount !== amount) {
      throw new Error(
        `sendFusd: ${request.key} is already sending ${running.transfer.amount} FUSD to ${running.transfer.to}`,
      );
    }
    return running.attempt;
  }
  const transfer = { key: request.key, to, amount };
  const attempt = run(client, transfer, store, options).finally(() => inFlight.delete(flightKey));
  inFlight.set(flightKey, { transfer, attempt });
  return attempt;
}

interface Transfer {
  key: string;
  to: string;
  amount: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run(
  client: FlowClient,
  transfer: Transfer,
  store: FusdSendStore,
  options: FusdSendOptions,
): Promise<{ transactionId: string }> {
  const stored = await store.get(transfer.key);
  if (stored?.transactionId) {
    const done = await resume(client, transfer, stored.transactionId, options.unknownGraceMs ?? 10_000);
    if (done) return done;
  }
  return send(client, transfer, store);
}

/** The outcome of a stored transaction: the transfer, or null when it must be sent anew. */
async function resume(
  client: FlowClient,
  transfer: Transfer,
  id: string,
  graceMs: number,
): Promise<{ transactionId: string } | null> {
  let check = await checkTransaction(client, id);
  const deadline = Date.now() + graceMs;
  while (check.state === 'unknown' && Date.now() < deadline) {
    await sleep(Math.min(1000, Math.max(0, deadline - Date.now())));
    check = await checkTransaction(client, id);
  }
  if (check.state === 'unknown' || check.state === 'failed') return null;
  let events: FlowEvent[];
  if (check.state === 'sealed') events = check.events;
  else {
    try {
      events = (await client.waitForSeal(id)).events;
    } catch (err) {
      // Reverted or expired: it paid nothing, send anew. Not sealed in time: still open.
      if (err instanceof FlowTransactionError && !/not sealed within/.test(err.message)) return null;
      throw err;
    }
  }
  if (!depositsTransfer(client, events, transfer)) {
    throw new Error(
      `sendFusd: transaction ${id} stored for ${transfer.key} is not a transfer of ${transfer.amount} FUSD to ${transfer.to}`,
    );
  }
  return { transactionId: id };
}

/** Whether the events hold the FUSD deposit of the transfer. */
function depositsTransfer(client: FlowClient, events: FlowEvent[], transfer: Transfer): boolean {
  const vaultType = `A.${client.config.contracts.FUSD.replace(/^0x/, '')}.FUSD.Vault`;
  return events.some(
    (e) =>
      e.type.endsWith('.FungibleToken.Deposited') &&
      e.data.type === vaultType &&
      typeof e.data.to === 'string' &&
      normalizeAddress(e.data.to) === transfer.to &&
      ufix64(String(e.data.amount)) === transfer.amount,
  );
}

/** A 4xx answer to the sent transaction, except those that ask to come back later. */
const isRefusal = (status: number | undefined) =>
  status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;

async function send(
  client: FlowClient,
  transfer: Transfer,
  store: FusdSendStore,
): Promise<{ transactionId: string }> {
  let id: string | undefined;
  const refused = (summary: string, details?: string) =>
    new FusdSendError(
      `sending ${transfer.amount} FUSD to ${transfer.to} (${transfer.key}) was refused: ${summary}`,
      transfer.key,
      id,
      details,
    );
  try {
    id = await client.send('transactions/transfer_fusd.cdc', {
      signer: client.config.admin,
      args: (arg, t) => [arg(transfer.to, t.Address), arg(transfer.amount, t.UFix64)],
      // Saved before the transaction leaves: a crash after sending still finds it.
      onTransactionId: async (txId) => {
        await store.save(transfer.key, txId);
        id = txId;
      },
    });
  } catch (err) {
    // The access node rejected the transaction (4xx); anything else may be passing.
    if (err instanceof FlowRequestError && isRefusal(err.statusCode)) {
      throw refused(err.message, err.details);
    }
    throw err;
  }
  try {
    await client.waitForSeal(id);
  } catch (err) {
    if (err instanceof FlowTransactionError && err.details !== undefined) {
      throw refused(err.message.replace(/^transaction \S+ failed: /, ''), err.details);
    }
    // Expired or not sealed in time: the next call with this key finds out.
    throw err;
  }
  return { transactionId: id };
}
