import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import { topupOutcome, topupTimings } from './cryptoTopup';

/**
 * Following the crypto top-up a buyer came back from (its charge id, `returnedTopup`), shared by the
 * balance rail and the resale purchase: the charge is read (`getTopup`, GET coinbase-charges/{id})
 * at once and then every `topupPollInterval` (2 s), at most 50 reads in all (a failed read counts,
 * and the next tick reads again), until its FUSD was sent (SEND_FUSD_SUCCEEDED), was not sent
 * (SEND_FUSD_FAILED) or it was not paid (EXPIRED, CANCELED); then, or after the last read, the
 * machine goes on to `done` (reading the balance). Each read is kept (`keepTopup`) for the panel;
 * `countTopupRead` counts them. The machine using it names `getTopup`, `keepTopup` and
 * `countTopupRead` in its setup, with the guards and delay below.
 */
const output = ({ event }: { event: { output: CoinbaseChargeJson } }) => event.output;

export function followTopupState<Done extends string>(done: Done) {
  return {
    tags: ['busy'],
    initial: 'reading',
    states: {
      reading: {
        entry: 'countTopupRead',
        invoke: {
          id: 'getTopup',
          src: 'getTopup',
          input: ({ context }: { context: { returnedTopup?: string | null } }) => ({
            id: context.returnedTopup!,
          }),
          onDone: [
            {
              guard: { type: 'topupSettled', params: output },
              target: done,
              actions: { type: 'keepTopup', params: output },
            },
            { target: 'next', actions: { type: 'keepTopup', params: output } },
          ],
          // A top-up that cannot be read now is read again on the next tick.
          onError: { target: 'next' },
        },
      },
      next: { always: [{ guard: 'topupReadsLeft', target: 'waiting' }, { target: done }] },
      waiting: { after: { topupPollInterval: { target: 'reading' } } },
    },
  } as const;
}

/** The guards the followed top-up's states name. */
export const topupFollowGuards = {
  /** Its FUSD was sent, was not sent, or it was not paid: nothing more to wait for. */
  topupSettled: (_: unknown, charge: CoinbaseChargeJson) => topupOutcome(charge) !== null,
  /** Fewer than 50 reads so far. */
  topupReadsLeft: ({ context }: { context: { topupReads: number } }) =>
    context.topupReads < topupTimings.maxPolls,
};
/** The delay between two reads of the followed top-up: 2 s. */
export const topupFollowDelays = { topupPollInterval: topupTimings.pollMs };
