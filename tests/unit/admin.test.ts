import { describe, expect, it } from 'vitest';
import { adminActions, adminCell, adminColumns } from '#domain/admin';

describe('back office rows', () => {
  it('offers Reopen on a declined verification and on one in review, and on no other', () => {
    const row = (status: string) => ({ id: 'k1', status });
    expect(adminActions('kyc', row('declined'))).toEqual([
      { label: 'Reopen', path: 'admin/kyc/k1', body: { reopen: true } },
    ]);
    expect(adminActions('kyc', row('review')).map((a) => a.label)).toEqual(['Reopen']);
    for (const status of ['approved', 'created', 'resubmission_requested', 'expired', 'abandoned', 'unknown'])
      expect([status, adminActions('kyc', row(status))]).toEqual([status, []]);
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
});
