import { act, render } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import { describe, expect, it } from 'vitest';
import { type AnyActorRef, setup } from 'xstate';
import { cardPaymentModel } from './cardPayment.model';
import { clickFirst } from './dom';
import {
  coveringPaths,
  footprint,
  type GeneratedPath,
  generatePaths,
  isUserEvent,
  type MachineModel,
  missingExpectations,
  type PathStep,
  type RunOptions,
  runPath,
  unusedViewless,
  type ViewlessEvent,
} from './harness';
import { storefrontReportModel } from './storefrontReport.model';
import { walletLinkModel } from './walletLink.model';

/**
 * The harness itself: in a view run, a user event goes through its control or the step fails. The
 * view here is a stand-in for Settings → Wallet whose "Relink wallet" button can be working,
 * missing, disabled, or wired to nothing.
 */
type Variant = 'working' | 'missing' | 'disabled' | 'silent';

function RelinkView({ actor, variant }: { actor: AnyActorRef; variant: Variant }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  return (
    <section>
      <h1>Wallet</h1>
      {variant === 'working' && (
        <button type="button" disabled={busy} onClick={() => actor.send({ type: 'wallet.relink' })}>
          Relink wallet
        </button>
      )}
      {variant === 'disabled' && (
        <button type="button" disabled>
          Relink wallet
        </button>
      )}
      {variant === 'silent' && (
        <button type="button" onClick={() => {}}>
          Relink wallet
        </button>
      )}
    </section>
  );
}

/** xstate.init → wallet.relink → xstate.done.actor.linkWallet: one user event, one actor outcome. */
const path = generatePaths(walletLinkModel).find(
  (p) =>
    p.steps.some((s) => s.event.type === 'wallet.relink') &&
    p.steps.some((s) => s.event.type === 'xstate.done.actor.linkWallet'),
) as GeneratedPath;

const performed: string[] = [];
const clickRelink = async (step: PathStep) => {
  performed.push(step.event.type);
  return step.event.type === 'wallet.relink' ? clickFirst('Relink wallet') : false;
};

function runThrough(variant: Variant, options: Partial<RunOptions> = {}) {
  performed.length = 0;
  return runPath(walletLinkModel, path, {
    mount: (actor) => {
      render(<RelinkView actor={actor} variant={variant} />);
    },
    perform: clickRelink,
    wrap: (fn) => act(fn),
    ...options,
  });
}

describe('runPath through a view', () => {
  it('has a path with a user event and an actor outcome', () => {
    expect(path.description).toBe('signed in: xstate.init → wallet.relink → xstate.done.actor.linkWallet');
  });

  it('passes when the control is there, and hands only user events to perform', async () => {
    await runThrough('working');
    expect(performed).toEqual(['wallet.relink']);
  });

  it('fails the step when the view has no control for a user event', async () => {
    await expect(runThrough('missing')).rejects.toThrow(
      `Could not perform user event "wallet.relink" through the view at step 2 (wallet.relink) of "${path.description}": No button named "Relink wallet" is on screen`,
    );
  });

  it('fails the step when perform reports no control (returns false), with no fallback to the actor', async () => {
    await expect(runThrough('missing', { perform: async () => false })).rejects.toThrow(
      `No control in the view for user event "wallet.relink" at step 2 (wallet.relink) of "${path.description}"`,
    );
  });

  it('fails the step when the control is disabled', async () => {
    await expect(runThrough('disabled')).rejects.toThrow('The button "Relink wallet" is disabled');
  });

  it('fails the step when the control raises nothing', async () => {
    await expect(runThrough('silent')).rejects.toThrow(
      `The view did not raise user event "wallet.relink" at step 2 (wallet.relink) of "${path.description}"`,
    );
  });

  it('sends a listed viewless event to the actor itself, with its reason on record', async () => {
    const viewless: ViewlessEvent[] = [{ event: 'wallet.relink', reason: 'raised elsewhere in this test' }];
    expect(unusedViewless(viewless)).toEqual(['wallet.relink: raised elsewhere in this test']);
    await runThrough('missing', { viewless });
    expect(performed).toEqual([]);
    expect(unusedViewless(viewless)).toEqual([]);
  });

  it('applies a viewless entry only where its condition holds', async () => {
    const viewless: ViewlessEvent[] = [
      { event: 'wallet.relink', when: (_e, before) => before.value === 'linking', reason: 'never here' },
    ];
    await expect(runThrough('missing', { viewless })).rejects.toThrow('No button named "Relink wallet"');
    expect(unusedViewless(viewless)).toEqual(['wallet.relink: never here']);
  });
});

describe('runPath without a view', () => {
  it('sends user events to the actor (machine paths)', async () => {
    await runPath(walletLinkModel, path);
  });
});

describe('isUserEvent', () => {
  it('leaves start, actor outcomes and delays to the harness', () => {
    expect(isUserEvent('wallet.relink')).toBe(true);
    expect(isUserEvent('ui.toast.show')).toBe(true);
    for (const type of [
      'xstate.init',
      'xstate.after.tick.countdown.counting',
      'xstate.done.actor.linkWallet',
      'xstate.error.actor.linkWallet',
    ])
      expect(isUserEvent(type)).toBe(false);
  });
});

describe('coveringPaths', () => {
  const takes = (model: typeof cardPaymentModel, paths: GeneratedPath[]) => {
    const machine = model.machine.provide((model.provide ?? {}) as never);
    return new Set(paths.flatMap((p) => [...footprint(machine, p.scenario, p.steps)]));
  };
  for (const [name, model] of [
    ['cardPayment', cardPaymentModel],
    ['storefrontReport', storefrontReportModel],
  ] as const) {
    it(`takes every transition and state value of all generated paths, in fewer paths (${name})`, () => {
      const all = generatePaths(model as typeof cardPaymentModel);
      const few = coveringPaths(model as typeof cardPaymentModel);
      expect(few.length).toBeLessThan(all.length);
      const names = new Set(all.map((p) => `${p.scenario.name}|${p.description}`));
      expect(few.every((p) => names.has(`${p.scenario.name}|${p.description}`))).toBe(true);
      const everything = takes(model as typeof cardPaymentModel, all);
      expect([...everything].some((k) => k.includes(' | '))).toBe(true);
      expect(takes(model as typeof cardPaymentModel, few)).toEqual(everything);
    });
  }
});

describe('expectations written from the rules', () => {
  /** A door; `opensTo` is where Open leads (a slip sends it back to closed). */
  const door = (opensTo: 'open' | 'closed') =>
    setup({ types: { events: {} as { type: 'door.open' } | { type: 'door.close' } } }).createMachine({
      id: 'door',
      initial: 'closed',
      states: { closed: { on: { 'door.open': opensTo } }, open: { on: { 'door.close': 'closed' } } },
    });
  const model = (opensTo: 'open' | 'closed'): MachineModel<ReturnType<typeof door>> => ({
    machine: door(opensTo),
    scenarios: [{ name: 'a door' }],
    events: () => [{ type: 'door.open' }, { type: 'door.close' }],
    expect: {
      closed: (o) => expect(o.event.type).not.toBe('door.open'),
      open: (o) => expect(o.event.type).toBe('door.open'),
    },
  });

  it('hold on every path of a machine that keeps the rules', async () => {
    for (const p of generatePaths(model('open'))) await runPath(model('open'), p);
  });

  it('fail a path where a wrong target takes the machine elsewhere, naming the rule and the step', async () => {
    const wrong = model('closed');
    const [p] = generatePaths(wrong).filter((g) => g.steps.some((s) => s.event.type === 'door.open'));
    await expect(runPath(wrong, p!)).rejects.toThrow('Expectation "closed" broken after step 2 (door.open)');
  });

  it('gate: names a state without an expectation and a key that names nothing', () => {
    const m = model('open');
    expect(missingExpectations(m as never)).toEqual([]);
    const { open: _, ...rest } = m.expect!;
    expect(missingExpectations({ ...m, expect: { ...rest, ajar: () => {} } } as never)).toEqual([
      'door: state "open" has no expectation',
      'door: expectation "ajar" names no state or tag of the machine',
    ]);
  });
});
