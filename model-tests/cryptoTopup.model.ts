import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { WAITING_FOR_NETWORK } from '#domain/chargeProgress';
import type { CoinbaseChargeJson, CoinbaseChargeStatus } from '#domain/schemas/crypto';
import {
  addedMessage,
  type CryptoTopupContext,
  type CryptoTopupEvent,
  type CryptoTopupInput,
  connectCryptoTopup,
  cryptoTopupMachine,
  TOPUP_AMOUNT_ERRORS,
  TOPUP_MESSAGES,
} from '../machines/cryptoTopup';
import { after, expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof cryptoTopupMachine>;
const view = (o: O) => connectCryptoTopup(o.snapshot, () => {});
const charged = (o: O, status: string) =>
  after(o, 'done', 'getCharge') && (o.event.output as CoinbaseChargeJson).status === status;
/** The amount typed last before this step. */
const typed = (o: O) => (o.history.filter((e) => e.type === 'topup.amount').at(-1)?.value as string) ?? '';

/** Reads before the page gives up in the model (the live machine reads 50 times; see cryptoTopup.test.ts). */
export const MODEL_MAX_POLLS = 2;

export const CHARGE_ID = '5c4b3a29-1807-4f6e-9d5c-4b3a2918f7e6';
export const OTHER_CHARGE_ID = '2f1e0d9c-8b7a-4f6e-8d4c-3b2a1f0e9d8c';
export const HOSTED_URL = 'http://127.0.0.1:8791/pay/CHRGT0P5';
export const WALLET = '0x01cf0e2f2f715450';
/** $25, the amount the paths top up. */
export const AMOUNT = 2500;

/** A top-up charge of `amount` cents in `status`; a NEW one has its hosted page unless told not to. */
export function topupCharge(
  status: CoinbaseChargeStatus,
  over: Partial<CoinbaseChargeJson> = {},
): CoinbaseChargeJson {
  const open = status === 'NEW';
  const paid = ['PENDING', 'COMPLETED', 'RESOLVED', 'SEND_FUSD_SUCCEEDED', 'SEND_FUSD_FAILED'].includes(
    status,
  );
  return {
    id: CHARGE_ID,
    type: 'topup',
    status,
    context: null,
    hostedUrl: open ? HOSTED_URL : null,
    code: 'CHRGT0P5',
    amount: AMOUNT,
    paid: paid ? AMOUNT : 0,
    unresolved: open,
    success: status === 'SEND_FUSD_SUCCEEDED',
    walletAddress: WALLET,
    fusdTransactionId: status === 'SEND_FUSD_SUCCEEDED' ? 'ab'.repeat(32) : null,
    expiresAt: '2026-11-22T11:00:00.000Z',
    createdAt: '2026-11-22T10:00:00.000Z',
    order: null,
    ...over,
  };
}

export const NETWORK_ERROR = {
  status: 0,
  body: {
    code: 'NETWORK_FAILURE',
    message: 'Unknown connection error. Please check your connection and try again.',
  },
};
export const CHARGE_PENDING_ERROR = {
  status: 409,
  body: { code: 'CHARGE_PENDING', message: '', chargeId: OTHER_CHARGE_ID },
};
export const PROVIDER_ERROR = {
  status: 502,
  body: { code: 'CRYPTO_PROVIDER', message: '' },
};

export const SCENARIOS: Record<'fresh' | 'returned', CryptoTopupInput> = {
  fresh: { returnedChargeId: null },
  returned: { returnedChargeId: CHARGE_ID },
};

/**
 * The amounts the paths type: empty (no amount), below $1, above $10,000, and $25. The field only
 * takes a change to another text (the harness offers only what the machine takes).
 */
export const AMOUNTS = ['', '0.50', '10000.01', '25'] as const;

const userEvents: CryptoTopupEvent[] = [
  ...AMOUNTS.map((value) => ({ type: 'topup.amount' as const, value })),
  { type: 'topup.submit' },
  { type: 'topup.again' },
];

/** Only what the state shows: the field, its error, whether an attempt is pending, the error; reads. */
export function serializeCryptoTopup(s: AnyMachineSnapshot) {
  const c = s.context as CryptoTopupContext;
  if (s.status === 'done') return JSON.stringify([s.value, s.output]);
  if (s.matches('checking')) return JSON.stringify([s.value, c.polls]);
  if (s.matches('editing') || s.matches('creating'))
    return JSON.stringify([
      s.value,
      c.amount,
      c.amountError,
      c.attempt ? 'key' : null,
      c.error?.code ?? null,
    ]);
  // An outcome: the added amount is all it shows of the charge.
  return JSON.stringify([s.value, s.matches('added') ? c.charge!.amount : null]);
}

export const cryptoTopupModel: MachineModel<typeof cryptoTopupMachine> = {
  machine: cryptoTopupMachine,
  fakes: ['createTopup', 'getCharge'],
  provide: { guards: { pollsLeft: ({ context }) => context.polls < MODEL_MAX_POLLS } },
  scenarios: [
    { name: 'a collector adding funds', input: SCENARIOS.fresh },
    { name: 'a collector back from the payment page', input: SCENARIOS.returned },
  ],
  events: (s) => [
    // The form after "Add more funds" is the fresh form, which the first scenario explores.
    ...(s.matches('editing') && (s.context as CryptoTopupContext).chargeId !== null ? [] : userEvents),
    { type: 'xstate.done.actor.createTopup', output: topupCharge('NEW') },
    { type: 'xstate.done.actor.createTopup', output: topupCharge('NEW', { hostedUrl: null }) },
    { type: 'xstate.error.actor.createTopup', error: NETWORK_ERROR },
    { type: 'xstate.error.actor.createTopup', error: CHARGE_PENDING_ERROR },
    { type: 'xstate.done.actor.getCharge', output: topupCharge('SEND_FUSD_SUCCEEDED') },
    { type: 'xstate.done.actor.getCharge', output: topupCharge('SEND_FUSD_FAILED') },
    { type: 'xstate.done.actor.getCharge', output: topupCharge('EXPIRED') },
    { type: 'xstate.done.actor.getCharge', output: topupCharge('CANCELED') },
    { type: 'xstate.done.actor.getCharge', output: topupCharge('PENDING') },
    { type: 'xstate.error.actor.getCharge', error: NETWORK_ERROR },
    { type: 'xstate.after.pollInterval.cryptoTopup.checking.waiting' },
  ],
  serializeState: serializeCryptoTopup,
  expect: {
    '#busy': (o) => expect(view(o).busy).toBe(true),
    // The amount form: $1 to $10,000, each refusal with its text; a failed attempt says why.
    editing: (o) => {
      const v = view(o);
      expect(v).toMatchObject({ panel: 'form', canEdit: true, busy: false, message: null });
      if (o.event.type === 'topup.amount')
        expect(v).toMatchObject({ amount: o.event.value, amountError: null, error: null });
      if (o.event.type === 'topup.submit') {
        const expected = { '': 'invalid', '0.50': 'min', '10000.01': 'max' }[typed(o)] as
          | 'invalid'
          | 'min'
          | 'max';
        expect(v.amountError).toBe(TOPUP_AMOUNT_ERRORS[expected]);
      }
      if (o.event.type === 'topup.again')
        expect(v).toMatchObject({ amount: '', amountError: null, error: null });
      if (o.event.type === 'xstate.init') expect(o.snapshot.context.chargeId).toBeNull();
      if (after(o, 'error', 'createTopup')) {
        const code = (o.event.error as { body: { code: string } }).body.code;
        expect(v.error).toBe(
          code === 'CHARGE_PENDING' ? TOPUP_MESSAGES.chargePending : NETWORK_ERROR.body.message,
        );
      }
      if (after(o, 'done', 'createTopup')) expect(v.error).toBeTruthy();
    },
    // One top-up charge per attempt: its key is kept only to send the same attempt again after a
    // lost connection, with the amount unchanged.
    creating: (o) => {
      expect(o.event.type).toBe('topup.submit');
      expectWorking(o, 'createTopup');
      const keys = inputsOf(o, 'createTopup').map((i) => (i as { idempotencyKey: string }).idempotencyKey);
      const sent = o.calls.at(-1)!.input as { amount: number; idempotencyKey: string };
      expect(sent.amount).toBe(Math.round(Number(typed(o)) * 100));
      const outcomes = o.history.filter(
        (e) => e.type.startsWith('xstate.') && e.type.endsWith('.createTopup'),
      );
      const last = outcomes.at(-1);
      const lastIndex = last ? o.history.lastIndexOf(last) : -1;
      const retrying =
        last?.type === 'xstate.error.actor.createTopup' &&
        (last.error as { body: { code: string } }).body.code === 'NETWORK_FAILURE' &&
        !o.history.slice(lastIndex).some((e) => e.type === 'topup.amount');
      if (retrying) expect(sent.idempotencyKey).toBe(keys.at(-2));
      else expect(keys.slice(0, -1)).not.toContain(sent.idempotencyKey);
      expect(view(o).status).toBe('Opening the payment page…');
    },
    redirecting: (o) => {
      expect(o.event).toMatchObject({
        type: 'xstate.done.actor.createTopup',
        output: { hostedUrl: HOSTED_URL },
      });
      expectOutput(o, { url: HOSTED_URL });
    },
    // Back with ?topup={id}: the charge is read every 2 s until the FUSD arrived or it ended.
    checking: (o) => {
      expect(o.snapshot.context.chargeId).toBe(CHARGE_ID);
      expect(view(o).panel).toBe('checking');
      expect(o.snapshot.context.polls).toBeLessThanOrEqual(MODEL_MAX_POLLS);
    },
    'checking.reading': (o) => {
      expectWorking(o, 'getCharge', { id: CHARGE_ID });
      expect(o.snapshot.context.polls).toBe(inputsOf(o, 'getCharge').length);
    },
    'checking.waiting': (o) => {
      if (charged(o, 'PENDING')) expect(view(o).status).toBe(WAITING_FOR_NETWORK);
      else expect(view(o).status).toBe('Checking your top-up…');
    },
    added: (o) => {
      expect(charged(o, 'SEND_FUSD_SUCCEEDED')).toBe(true);
      expect(view(o)).toMatchObject({ panel: 'added', message: addedMessage(AMOUNT), canAgain: true });
    },
    failed: (o) => {
      expect(charged(o, 'SEND_FUSD_FAILED')).toBe(true);
      expect(view(o)).toMatchObject({ panel: 'failed', message: TOPUP_MESSAGES.failed, canAgain: true });
    },
    ended: (o) => {
      expect(charged(o, 'EXPIRED') || charged(o, 'CANCELED')).toBe(true);
      expect(view(o)).toMatchObject({ panel: 'ended', message: TOPUP_MESSAGES.ended, canAgain: true });
    },
    // Out of reads: still being confirmed.
    slow: (o) => {
      expect(inputsOf(o, 'getCharge')).toHaveLength(MODEL_MAX_POLLS);
      expect(view(o)).toMatchObject({ panel: 'slow', message: TOPUP_MESSAGES.slow, canAgain: true });
    },
  },
};
