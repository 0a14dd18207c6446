import { describe, expect, it } from 'vitest';
import {
  availableFunds,
  centsToDecimal,
  type LedgerRequest,
  parseSalesSearch,
  payoutFailureText,
  payoutLedger,
  percentOf,
  primarySaleShares,
} from '#domain/sales';

/**
 * The seller's net of a primary sale (amount − platform fee, rounded half up to a cent; the creator
 * owes no royalty to themselves), the available funds
 * (total net − requests in created, pending, approved or payed) and the FIFO payout ledger
 * (domain/sales.ts).
 */
describe('sale shares', () => {
  it('takes a percentage of cents, rounded half up, exactly', () => {
    expect(percentOf(2500, 7.5)).toBe(188); // 187.5
    expect(percentOf(999, 5)).toBe(50); // 49.95
    expect(percentOf(999, 2.5)).toBe(25); // 24.975
    expect(percentOf(1, 50)).toBe(1); // 0.5
    expect(percentOf(1, 49.999999)).toBe(0);
    // In floating point 1500 × 2.3 / 100 is 34.49999999999999, which Math.round takes to 34.
    expect(percentOf(1500, 2.3)).toBe(35);
    expect(percentOf(1005, 1.15)).toBe(12);
    expect(percentOf(1_000_000, 10)).toBe(100_000);
    expect(percentOf(0, 33.3)).toBe(0);
    expect(percentOf(1234, 0)).toBe(0);
    expect(() => percentOf(10.5, 5)).toThrow();
    expect(() => percentOf(-1, 5)).toThrow();
    expect(() => percentOf(100, 101)).toThrow();
  });

  it('nets a primary sale of the platform fee only: the creator owes no royalty to themselves', () => {
    expect(primarySaleShares(2500, 7.5)).toEqual({ royaltyFee: 0, platformFee: 188, net: 2312 });
    expect(primarySaleShares(0, 5)).toEqual({ royaltyFee: 0, platformFee: 0, net: 0 });
    expect(primarySaleShares(1, 50)).toEqual({ royaltyFee: 0, platformFee: 1, net: 0 });
  });
});

describe('available funds', () => {
  it('subtracts requests in created, pending, approved and payed only', () => {
    const r = (state: LedgerRequest['state'], amount: number) => ({ amount, state });
    expect(
      availableFunds(10_000, [
        r('created', 1),
        r('pending', 10),
        r('approved', 100),
        r('payed', 1000),
        r('denied', 2000),
        r('cancelled', 3000),
        r('failed', 4000),
      ]),
    ).toBe(10_000 - 1111);
    expect(availableFunds(0, [])).toBe(0);
  });
});

describe('payout ledger', () => {
  const sale = (id: string, net: number, day: number) => ({
    id,
    net,
    purchasedOn: new Date(Date.UTC(2026, 0, day)).toISOString(),
  });
  const request = (
    id: string,
    amount: number,
    state: LedgerRequest['state'],
    day: number,
  ): LedgerRequest => ({
    id,
    amount,
    state,
    createdAt: new Date(Date.UTC(2026, 1, day)),
  });

  it('covers sales oldest first with committed requests oldest first, splitting a sale', () => {
    const ledger = payoutLedger(
      // Given out of order: the ledger sorts by purchase time.
      [sale('c', 1000, 3), sale('a', 1000, 1), sale('b', 1000, 2), sale('free', 0, 4)],
      [
        request('second', 1000, 'created', 3),
        request('first', 1500, 'payed', 1),
        request('denied', 700, 'denied', 2),
      ],
    );
    expect(Object.fromEntries(ledger)).toEqual({
      a: {
        allocations: [{ requestId: 'first', state: 'payed', amount: 1000 }],
        unrequested: 0,
        status: 'paid',
      },
      b: {
        allocations: [
          { requestId: 'first', state: 'payed', amount: 500 },
          { requestId: 'second', state: 'created', amount: 500 },
        ],
        unrequested: 0,
        status: 'requested',
      },
      c: {
        allocations: [{ requestId: 'second', state: 'created', amount: 500 }],
        unrequested: 500,
        status: 'requested',
      },
      free: { allocations: [], unrequested: 0, status: 'nothingDue' },
    });
  });

  it('leaves sales unpaid without requests, and breaks time ties by id', () => {
    const ledger = payoutLedger(
      [sale('y', 300, 1), sale('x', 300, 1)],
      [request('q', 300, 'approved', 1), request('p', 100, 'pending', 1)],
    );
    expect(ledger.get('x')).toEqual({
      allocations: [
        { requestId: 'p', state: 'pending', amount: 100 },
        { requestId: 'q', state: 'approved', amount: 200 },
      ],
      unrequested: 0,
      status: 'requested',
    });
    expect(ledger.get('y')).toEqual({
      allocations: [{ requestId: 'q', state: 'approved', amount: 100 }],
      unrequested: 200,
      status: 'requested',
    });
    expect(payoutLedger([sale('z', 5, 1)], []).get('z')).toEqual({
      allocations: [],
      unrequested: 5,
      status: 'unpaid',
    });
  });
});

describe('helpers', () => {
  it('writes cents as decimal dollars', () => {
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(123_456)).toBe('1234.56');
    expect(centsToDecimal(-5)).toBe('-0.05');
  });

  it('reads the Sales panel’s search params, leaving defaults out', () => {
    expect(parseSalesSearch({})).toEqual({});
    expect(parseSalesSearch({ page: 3, pageSize: 25 })).toEqual({ page: 3, pageSize: 25 });
    expect(parseSalesSearch({ page: '2', pageSize: '100' })).toEqual({ page: 2, pageSize: 100 });
    expect(parseSalesSearch({ page: 1, pageSize: 50 })).toEqual({});
    expect(parseSalesSearch({ blueprintId: '0b6f1d2e-58a4-4f0e-9c41-1b2c3d4e5f60' })).toEqual({
      blueprintId: '0b6f1d2e-58a4-4f0e-9c41-1b2c3d4e5f60',
    });
    expect(parseSalesSearch({ blueprintId: 'x' })).toEqual({});
    expect(parseSalesSearch({ page: 0, pageSize: 10 })).toEqual({});
    expect(parseSalesSearch({ page: 'x', pageSize: 1.5 })).toEqual({});
  });

  it('shows a payout failure as the server’s message, else errors.default', () => {
    expect(payoutFailureText({ message: 'Payout request already pending' })).toBe(
      'Payout request already pending',
    );
    expect(payoutFailureText({ message: '' })).toBe('Something went wrong. Please try again.');
    expect(payoutFailureText(null)).toBe('Something went wrong. Please try again.');
  });
});
