import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { connectSaleNotices, saleNoticesMachine } from '../machines/saleNotices';
import { flushCoverage } from './coverage-store';
import { makeUser } from './fixtures';
import { generatePaths, runPath } from './harness';
import { NOTICE, saleNoticesModel } from './saleNotices.model';

describe('saleNotices machine paths', () => {
  const paths = generatePaths(saleNoticesModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(saleNoticesModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('saleNotices', () => {
  it('shows which item and edition sold, the price and the net; marks read; switches emails off', async () => {
    const announced: unknown[] = [];
    const actor = createActor(
      saleNoticesMachine.provide({
        actors: {
          fetchNotices: fromPromise(async () => ({ results: [NOTICE], unread: 1 })),
          markRead: fromPromise<unknown>(async () => ({})),
          saveSaleEmails: fromPromise(async ({ input }) => ({ user: makeUser(input) })),
        },
        actions: { announceUser: (_, { user }) => announced.push(user.saleEmails) },
      }),
      { input: { saleEmails: true } },
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    const view = () => connectSaleNotices(actor.getSnapshot(), (event) => actor.send(event));
    expect(view().rows).toEqual([
      {
        id: NOTICE.id,
        text: 'Sold: Harbor Lights #03',
        detail: '$25 paid · $21.25 yours after fees',
        when: expect.any(String),
        unread: true,
      },
    ]);
    // A saved item's notices say its new price (and the one before) or that its sale opened.
    const saved = (kind: string, net: number | null) =>
      connectSaleNotices(
        {
          ...actor.getSnapshot(),
          context: {
            ...actor.getSnapshot().context,
            notices: [{ ...NOTICE, kind, serialNumber: null, amount: 2000, net }],
          },
        } as never,
        () => {},
      ).rows.map((r) => [r.text, r.detail]);
    expect(saved('priceDrop', 2500)).toEqual([['Price drop: Harbor Lights', 'Now $20 · was $25']]);
    expect(saved('saleOpen', null)).toEqual([['On sale now: Harbor Lights', '$20']]);
    const offer = (kind: string) => saved(kind, null).map(([text]) => text);
    expect([offer('offerMade'), offer('offerAccepted'), offer('offerExpired')]).toEqual([
      ['New offer: Harbor Lights'],
      ['Offer accepted: Harbor Lights'],
      ['Offer expired: Harbor Lights'],
    ]);
    expect(saved('offerMade', null)[0]![1]).toBe('$20 offered');
    // Through the controls' prop getters, as the panel does.
    expect(view().getMarkReadButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    view().getMarkReadButtonProps().onClick!();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(view()).toMatchObject({ unread: 0, canMarkRead: false });
    expect(view().getMarkReadButtonProps()).toMatchObject({ disabled: true, 'data-state': 'disabled' });
    expect(view().getEmailsToggleProps()).toMatchObject({ checked: true, 'data-state': 'checked' });
    view().getEmailsToggleProps().onChange(false);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(view().emailsOn).toBe(false);
    expect(view().getEmailsToggleProps()).toMatchObject({ checked: false, 'data-state': 'unchecked' });
    expect(announced).toEqual([false]);
  });
});
