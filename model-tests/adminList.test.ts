import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AdminAction } from '#domain/admin';
import { adminListMachine, connectAdminList } from '../machines/adminList';
import { adminListModel, PAYOUT_ROW } from './adminList.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('adminList machine paths', () => {
  const paths = generatePaths(adminListModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(adminListModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('adminList', () => {
  it('performs the action the row offers now, then loads the page again', async () => {
    const fetched: unknown[] = [];
    const performed: AdminAction[] = [];
    let state = 'created';
    const actor = createActor(
      adminListMachine.provide({
        actors: {
          fetchList: fromPromise(async ({ input }) => {
            fetched.push(input.query);
            return { results: [{ ...PAYOUT_ROW, state }], total: 1 };
          }),
          performAction: fromPromise(async ({ input }) => {
            performed.push(input);
            state = 'approved';
            return {};
          }),
        },
      }),
      { input: { list: 'payout-requests' } },
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    const view = connectAdminList(actor.getSnapshot(), (event) => actor.send(event));
    // The status filter reads "paid" for the API's state payed.
    expect(view.statuses.find((s) => s.value === 'payed')).toEqual({ value: 'payed', label: 'paid' });
    expect(view.rows[0]!.cells).toEqual([
      'Pixel Garden',
      'ada@example.com',
      '$123.45',
      'created',
      'Nov 20, 2026, 10:00 AM UTC',
    ]);
    expect(view.rows[0]!.actions.map((a) => a.label)).toEqual(['Approve', 'Deny']);
    // An action the row does not offer is refused.
    actor.send({
      type: 'admin.act',
      rowId: PAYOUT_ROW.id,
      action: { label: 'Mark paid', route: '/payout-requests/{id}', id: 'x', body: {} },
    });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    // Approve, through its button's props as the list does.
    const approve = view.getActionButtonProps(PAYOUT_ROW.id, view.rows[0]!.actions[0]!);
    expect(approve).toMatchObject({ disabled: false, 'data-state': 'idle' });
    approve.onClick!();
    expect(
      connectAdminList(actor.getSnapshot(), () => {}).getActionButtonProps(
        PAYOUT_ROW.id,
        view.rows[0]!.actions[0]!,
      ),
    ).toMatchObject({ disabled: true, 'aria-busy': true, 'data-state': 'busy' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.results[0]!.state === 'approved');
    expect(performed).toEqual([
      {
        label: 'Approve',
        route: '/payout-requests/{id}',
        id: PAYOUT_ROW.id,
        body: { state: 'approved' },
        danger: false,
      },
    ]);
    expect(fetched).toHaveLength(2);
    expect(connectAdminList(actor.getSnapshot(), () => {}).rows[0]!.actions.map((a) => a.label)).toEqual([
      'Mark pending',
      'Mark paid',
      'Mark failed',
    ]);
  });
});
