import { describe, expect, it } from 'vitest';
import { adminActions, adminCell, adminColumns } from '#domain/admin';

describe('back office rows', () => {
  it('offers Reopen on a declined verification and on one in review, and on no other', () => {
    const row = (status: string) => ({ id: 'k1', status });
    expect(adminActions('kyc', row('declined'))).toEqual([
      { label: 'Reopen', route: '/admin/kyc/{id}', id: 'k1', body: { reopen: true } },
    ]);
    expect(adminActions('kyc', row('review')).map((a) => a.label)).toEqual(['Reopen']);
    for (const status of ['approved', 'created', 'resubmission_requested', 'expired', 'abandoned', 'unknown'])
      expect([status, adminActions('kyc', row(status))]).toEqual([status, []]);
  });

  it('offers Resend on a failed email and on no other', () => {
    expect(adminActions('emails', { id: 'e1', status: 'failed' })).toEqual([
      { label: 'Resend', route: '/admin/emails/{id}', id: 'e1', body: { resend: true } },
    ]);
    for (const status of ['queued', 'sending', 'sent'])
      expect([status, adminActions('emails', { id: 'e1', status })]).toEqual([status, []]);
  });

  it('shows an audited change field by field, before → after, leaving out what did not change', () => {
    const change = adminColumns.audit.find((c) => c.key === 'change')!;
    expect(
      adminCell(
        {
          id: 'a1',
          before: { userId: 'u1', status: 'declined', sessionId: 's1' },
          after: { userId: 'u1', status: 'unknown' },
        },
        change,
      ),
    ).toBe('status: declined → unknown');
    expect(
      adminCell(
        { id: 'a2', before: { enabled: true, suspended: false }, after: { enabled: false, suspended: true } },
        change,
      ),
    ).toBe('enabled: true → false, suspended: false → true');
    expect(adminCell({ id: 'a3', before: {}, after: {} }, change)).toBe('—');
  });

  it('reads "paid" where the API names a payout state payed: its state, the audit log, the action', () => {
    const state = adminColumns['payout-requests'].find((c) => c.key === 'state')!;
    expect(adminCell({ id: 'p1', state: 'payed' }, state)).toBe('paid');
    const [action, change] = ['action', 'change'].map(
      (key) => adminColumns.audit.find((c) => c.key === key)!,
    );
    const audited = {
      id: 'a4',
      action: 'payout-request.payed',
      before: { state: 'approved' },
      after: { state: 'payed' },
    };
    expect(adminCell(audited, action!)).toBe('payout-request.paid');
    expect(adminCell(audited, change!)).toBe('state: approved → paid');
    const row = { id: 'p2', state: 'approved' };
    expect(adminActions('payout-requests', row).map((a) => a.label)).toEqual([
      'Mark pending',
      'Mark paid',
      'Mark failed',
    ]);
    // The API's value stays as the SPEC names it.
    expect(adminActions('payout-requests', row)[1]!.body).toEqual({ state: 'payed' });
  });
});
