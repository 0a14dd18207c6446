import { eq } from 'drizzle-orm';
import { type Database, uniqueViolation } from '../db';
import { mints } from '../db/schema';
import { getEditionToken, mintedTokenId, mintNftArgs } from './actions';
import { type FlowClient, FlowTransactionError } from './client';
import { normalizeAddress } from './config';

/**
 * The minting service: the admin account mints an edition to the buyer's address (purchases and
 * free claims). Idempotent per purchase key:
 *
 * - The first call records the mint in `mints` (pending), signs the transaction, stores its id
 *   (submitted) before sending it, and on seal stores the token id (sealed).
 * - A call with a key already sealed answers the stored result without touching the chain; one
 *   whose transaction is known resumes waiting for it; one that failed tries again.
 * - Calls with the same key in one process share one attempt.
 * - Across processes the contract is the last guard: an edition (blueprint id, serial number) can
 *   be minted once, and the `mints` table gives each edition to one purchase key, so a second
 *   attempt that finds its edition minted takes the existing token as its own.
 */

export interface MintRequest {
  /** The purchase (or claim) this mint fulfils; retries carry the same key. */
  purchaseKey: string;
  /** The buyer's Flow address; the account must have a VitrineNFT collection. */
  to: string;
  blueprintId: number;
  serialNumber: number;
  metadata: Record<string, string>;
}

export interface MintResult {
  purchaseKey: string;
  status: 'sealed';
  recipient: string;
  blueprintId: number;
  serialNumber: number;
  transactionId: string;
  nftId: string;
}

/** The request does not match what its purchase key or its edition already stands for. */
export class MintConflictError extends Error {
  override name = 'MintConflictError';
}

/** The chain refused the mint (e.g. the recipient has no collection); a retry tries again. */
export class MintFailedError extends Error {
  override name = 'MintFailedError';
  constructor(
    message: string,
    readonly purchaseKey: string,
    readonly transactionId?: string,
  ) {
    super(message);
  }
}

export interface MintService {
  mint(request: MintRequest): Promise<MintResult>;
  /** The recorded mint of a purchase key, if any. */
  get(purchaseKey: string): Promise<typeof mints.$inferSelect | undefined>;
}

type Row = typeof mints.$inferSelect;

function check(request: MintRequest): MintRequest {
  if (!request.purchaseKey) throw new TypeError('mint: purchaseKey is required');
  for (const field of ['blueprintId', 'serialNumber'] as const) {
    if (!Number.isSafeInteger(request[field]) || request[field] < 0)
      throw new TypeError(`mint: ${field} must be a non-negative integer`);
  }
  return { ...request, to: normalizeAddress(request.to) };
}

function result(row: Row): MintResult {
  return {
    purchaseKey: row.purchaseKey,
    status: 'sealed',
    recipient: row.recipient,
    blueprintId: row.blueprintId,
    serialNumber: row.serialNumber,
    transactionId: row.transactionId!,
    nftId: row.nftId!,
  };
}

/** The mint of a purchase key, if any. */
const loadMint = async (db: Database, purchaseKey: string) =>
  (await db.select().from(mints).where(eq(mints.purchaseKey, purchaseKey)).limit(1))[0];

/** The row for the request: created, or the existing one if it stands for the same mint. */
async function recordMint(db: Database, request: MintRequest): Promise<Row> {
  try {
    await db
      .insert(mints)
      .values({
        purchaseKey: request.purchaseKey,
        recipient: request.to,
        blueprintId: request.blueprintId,
        serialNumber: request.serialNumber,
        metadata: request.metadata,
      })
      .onConflictDoNothing({ target: mints.purchaseKey });
  } catch (err) {
    if (uniqueViolation(err) === 'mints_edition_unique') {
      throw new MintConflictError(
        `edition ${request.serialNumber} of blueprint ${request.blueprintId} belongs to another purchase`,
      );
    }
    throw err;
  }
  const row = (await loadMint(db, request.purchaseKey))!;
  if (
    row.recipient !== request.to ||
    row.blueprintId !== request.blueprintId ||
    row.serialNumber !== request.serialNumber
  ) {
    throw new MintConflictError(
      `purchase ${request.purchaseKey} already mints edition ${row.serialNumber} of blueprint ${row.blueprintId} to ${row.recipient}`,
    );
  }
  return row;
}

export function createMintService(deps: { db: Database; client: FlowClient; now?: () => Date }): MintService {
  const { db, client } = deps;
  const now = deps.now ?? (() => new Date());
  const inFlight = new Map<string, Promise<MintResult>>();

  const load = (purchaseKey: string) => loadMint(db, purchaseKey);

  const update = (purchaseKey: string, values: Partial<Row>) =>
    db
      .update(mints)
      .set({ ...values, updatedAt: now() })
      .where(eq(mints.purchaseKey, purchaseKey));

  async function sealed(row: Row, transactionId: string, nftId: string): Promise<MintResult> {
    await update(row.purchaseKey, { status: 'sealed', transactionId, nftId, error: null });
    return result({ ...row, status: 'sealed', transactionId, nftId });
  }

  /** After a failed transaction: the edition may already be minted by an earlier attempt of this key. */
  async function recover(row: Row, err: unknown, transactionId: string | undefined): Promise<MintResult> {
    if (err instanceof FlowTransactionError && /is already minted/.test(err.details ?? err.message)) {
      const nftId = await getEditionToken(client, row.blueprintId, row.serialNumber);
      if (nftId !== null) return sealed(row, row.transactionId ?? err.transactionId, nftId);
    }
    if (err instanceof FlowTransactionError && /not sealed within|expired/.test(err.message)) {
      // Unknown outcome: stay submitted, a retry resumes or resubmits.
      throw err;
    }
    const message = err instanceof Error ? err.message : String(err);
    await update(row.purchaseKey, { status: 'failed', error: message });
    throw new MintFailedError(message, row.purchaseKey, transactionId);
  }

  async function submit(row: Row): Promise<MintResult> {
    let transactionId: string | undefined;
    await update(row.purchaseKey, { attempts: row.attempts + 1, status: 'pending', error: null });
    try {
      const id = await client.send('transactions/mint_nft.cdc', {
        signer: client.config.admin,
        args: mintNftArgs({
          to: row.recipient,
          blueprintId: row.blueprintId,
          serialNumber: row.serialNumber,
          metadata: row.metadata,
        }),
        // Stored before the transaction leaves, so that a crash after sending still knows it.
        onTransactionId: async (txId) => {
          transactionId = txId;
          await update(row.purchaseKey, { status: 'submitted', transactionId: txId });
        },
      });
      const tx = await client.waitForSeal(id);
      return await sealed(row, id, mintedTokenId(client, tx));
    } catch (err) {
      return recover(row, err, transactionId);
    }
  }

  async function run(request: MintRequest): Promise<MintResult> {
    const row = await recordMint(db, request);
    if (row.status === 'sealed') return result(row);
    if (row.status === 'submitted' && row.transactionId) {
      const status = await client.transactionStatus(row.transactionId);
      // Known to the chain: its outcome is this mint's outcome. Unknown: it never left; send anew.
      if (status) {
        try {
          const tx = await client.waitForSeal(row.transactionId);
          return await sealed(row, row.transactionId, mintedTokenId(client, tx));
        } catch (err) {
          // It failed on chain: try again below (an edition it did mint after all is recovered there).
          if (!(err instanceof FlowTransactionError) || /not sealed within/.test(err.message)) throw err;
        }
      }
    }
    return submit(row);
  }

  return {
    mint(raw) {
      const request = check(raw);
      const running = inFlight.get(request.purchaseKey);
      if (running) {
        return running.then((first) => {
          if (
            first.recipient !== request.to ||
            first.blueprintId !== request.blueprintId ||
            first.serialNumber !== request.serialNumber
          ) {
            throw new MintConflictError(`purchase ${request.purchaseKey} mints another edition or recipient`);
          }
          return first;
        });
      }
      const attempt = run(request).finally(() => inFlight.delete(request.purchaseKey));
      inFlight.set(request.purchaseKey, attempt);
      return attempt;
    },
    get: load,
  };
}
