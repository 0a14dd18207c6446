import {
  type AnyRouter,
  createMemoryHistory,
  createRootRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor } from 'xstate';
import type { StorefrontJson } from '#domain/catalog';
import { errorTexts } from '#domain/errors';
import {
  accountValues,
  type DashboardAccountContext,
  dashboardAccountMachine,
} from '../machines/dashboardAccount';
import { connectDashboardAccount } from '../machines/dashboardAccountView';
import { AccountPanelView } from '../src/views/dashboard/AccountPanel';
import { flushCoverage } from './coverage-store';
import { dashboardAccountModel, imageSizes, makeStorefront } from './dashboardAccount.model';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, flush, type PathStep, runPath } from './harness';

/** Dashboard → Account paths through the panel: typing, choosing, attaching files, buttons, navigation. */
let router: AnyRouter;
let away = 0;
async function mountWithRouter(node: () => ReactNode) {
  const root = createRootRoute({ component: () => <>{node()}</> });
  router = createRouter({
    routeTree: root,
    history: createMemoryHistory({ initialEntries: ['/dashboard/account'] }),
  });
  await act(async () => {
    render(<RouterProvider router={router as never} />);
    await router.load();
  });
}

// jsdom decodes no images: the browser's size reading answers from the file name.
const realCreateImageBitmap = globalThis.createImageBitmap;
beforeAll(() => {
  globalThis.createImageBitmap = (async (file: File) => ({
    ...imageSizes[file.name],
    close: () => {},
  })) as unknown as typeof createImageBitmap;
});
afterAll(() => {
  globalThis.createImageBitmap = realCreateImageBitmap;
});

const button = (name: string | RegExp) => screen.getByRole<HTMLButtonElement>('button', { name });
const box = (field: string) => document.querySelector<HTMLElement>(`[data-field="${field}"]`)!;

async function perform(step: PathStep) {
  const e = step.event as {
    type: string;
    field?: string;
    value?: string | null;
    file?: { name: string; type: string; size: number } | null;
  };
  switch (e.type) {
    case 'account.change': {
      if (e.field === 'theme')
        return clickControl(
          screen.queryByRole<HTMLInputElement>('radio', { name: e.value === 'dark' ? /^Dark/ : /^Light/ }),
          `The ${e.value} theme`,
        );
      const field = document.getElementById(`account-${e.field}`) as
        | HTMLInputElement
        | HTMLSelectElement
        | null;
      if (field instanceof HTMLSelectElement) {
        if (field.disabled) throw new Error(`The ${e.field} list is disabled`);
        fireEvent.change(field, { target: { value: e.value ?? '' } });
        return true;
      }
      return typeInto(field, e.value ?? '', `The ${e.field} field`);
    }
    case 'account.file': {
      if (!e.file) {
        const remove = screen
          .queryAllByRole('button', { name: 'Remove' })
          .find((b) => box(e.field!).contains(b));
        return clickControl(remove, `The ${e.field}’s Remove button`);
      }
      const file = new File([new Uint8Array(e.file.size)], e.file.name, { type: e.file.type });
      fireEvent.change(box(e.field!).querySelector('input[type="file"]')!, { target: { files: [file] } });
      // The panel reads the image's size before it sends the event.
      await act(flush);
      return true;
    }
    case 'account.save':
      return clickFirst('Save');
    case 'account.discard':
      return clickFirst('Discard changes');
    case 'account.enabled.toggle':
      return clickControl(screen.queryByRole('switch', { name: 'Storefront enabled' }), 'The enabled switch');
    case 'account.leave':
      // Any navigation away from the panel: a dashboard menu link, the browser's back button.
      away += 1;
      await act(async () => {
        void router.navigate({ to: `/dashboard/away-${away}` as never });
        await flush();
      });
      return true;
    case 'account.leave.confirm':
      return clickFirst('Leave');
    case 'account.leave.cancel':
      return clickFirst('Stay');
    default:
      return false;
  }
}

function makeCheck(input: StorefrontJson | null, reported: { current: StorefrontJson | null }) {
  let lastError: string | null = null;
  return (expected: AnyMachineSnapshot) => {
    const view = connectDashboardAccount(expected as never, () => {});
    expect(document.querySelector<HTMLElement>('.vt-account')?.dataset.state).toBe(view.panel);
    if (view.panel === 'noStorefront') {
      expect(button('Create storefront')).toBeTruthy();
      return;
    }
    const c = expected.context as DashboardAccountContext;
    for (const field of ['name', 'description', 'contactEmail', 'vanityUrl'] as const)
      expect((document.getElementById(`account-${field}`) as HTMLInputElement).value).toBe(
        view.values[field],
      );
    expect(view.values).toEqual(c.draft);
    expect(screen.getByLabelText<HTMLSelectElement>('Category').value).toBe(view.values.category ?? '');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^Dark/ }).checked).toBe(
      view.values.theme === 'dark',
    );
    expect(screen.getByTestId('preview-name').textContent).toBe(view.preview.name);
    expect(screen.getByRole<HTMLInputElement>('switch').checked).toBe(view.enabled);
    expect(screen.getByRole<HTMLInputElement>('switch').disabled).toBe(!view.canToggle);
    // Save and Discard only with changes, and nothing while busy.
    expect(button('Save').disabled).toBe(!view.canSave || view.saving);
    expect(button('Save').getAttribute('aria-busy')).toBe(view.saving ? 'true' : null);
    expect(button('Discard changes').disabled).toBe(!view.canDiscard);
    if (view.canSave || view.canDiscard) expect(view.dirty && !view.busy).toBe(true);
    for (const field of ['logo', 'banner'] as const) {
      const name = view.files[field]?.name;
      if (name) expect(box(field).textContent).toContain(name);
      else expect(box(field).querySelector('[data-testid="file-name"]')).toBeNull();
    }
    const dialog = screen.queryByRole('dialog');
    if (view.leaveQuestion) expect(dialog?.textContent).toContain(errorTexts['dashboard.unsaved']);
    else expect(dialog).toBeNull();
    const alerts = screen.queryAllByRole('alert').map((el) => el.textContent ?? '');
    expect(alerts).toEqual([...Object.values(view.fieldErrors), view.formError].filter((t) => !!t));
    // A new field error scrolls to its field and focuses it.
    const error = view.errorField
      ? `${view.errorField}:${view.fieldErrors[view.errorField as 'name']}`
      : null;
    if (view.errorField && error !== lastError)
      expect(box(view.errorField).contains(document.activeElement)).toBe(true);
    lastError = error;
    // Every change of the storefront on the server reaches the dashboard (router.invalidate).
    expect(reported.current ?? input).toEqual(view.storefront);
  };
}

describe('dashboard account paths through the panel', () => {
  for (const path of coveringPaths(dashboardAccountModel)) {
    const input = (path.scenario.input as { storefront: StorefrontJson | null }).storefront;
    const reported = { current: null as StorefrontJson | null };
    it(path.description, () =>
      runPath(dashboardAccountModel, path, {
        mount: (actor: AnyActorRef) =>
          mountWithRouter(() => (
            <AccountPanelView actor={actor as never} onSaved={(s) => (reported.current = s)} />
          )),
        perform,
        check: makeCheck(input, reported),
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('dashboard account panel', () => {
  it('without a storefront, "Create storefront" opens the wizard', async () => {
    const actor = createActor(dashboardAccountMachine, { input: { storefront: null } }).start();
    await mountWithRouter(() => <AccountPanelView actor={actor} />);
    await act(async () => {
      fireEvent.click(button('Create storefront'));
      await flush();
    });
    expect(router.state.location.pathname).toBe('/create-storefront');
  });

  it('leaves without asking when nothing is unsaved, and links the public page', async () => {
    const actor = createActor(dashboardAccountMachine, { input: { storefront: makeStorefront() } }).start();
    await mountWithRouter(() => <AccountPanelView actor={actor} />);
    expect(screen.getByRole('link', { name: 'View public page' }).getAttribute('href')).toBe(
      '/s/night-loops',
    );
    await act(async () => {
      void router.navigate({ to: '/dashboard/preview' as never });
      await flush();
    });
    expect(router.state.location.pathname).toBe('/dashboard/preview');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before leaving with unsaved changes: Stay keeps them, Leave discards them and goes', async () => {
    const actor = createActor(dashboardAccountMachine, { input: { storefront: makeStorefront() } }).start();
    await mountWithRouter(() => <AccountPanelView actor={actor} />);
    await act(async () => {
      fireEvent.change(document.getElementById('account-name')!, { target: { value: 'Renamed' } });
    });
    await act(async () => {
      void router.navigate({ to: '/dashboard/preview' as never });
      await flush();
    });
    expect(screen.getByRole('dialog').textContent).toContain(
      'You have unsaved changes. Leave without saving?',
    );
    await act(async () => {
      fireEvent.click(button('Stay'));
      await flush();
    });
    expect(router.state.location.pathname).toBe('/dashboard/account');
    expect(actor.getSnapshot().context.draft.name).toBe('Renamed');
    await act(async () => {
      void router.navigate({ to: '/dashboard/sales' as never });
      await flush();
    });
    await act(async () => {
      fireEvent.click(button('Leave'));
      await flush();
    });
    expect(router.state.location.pathname).toBe('/dashboard/sales');
    expect(actor.getSnapshot().context.draft).toEqual(accountValues(makeStorefront()));
  });

  it('warns on browser unload only while something is unsaved', async () => {
    const actor = createActor(dashboardAccountMachine, { input: { storefront: makeStorefront() } }).start();
    const history = createMemoryHistory({ initialEntries: ['/dashboard/account'] });
    const block = vi.spyOn(history, 'block');
    const root = createRootRoute({ component: () => <AccountPanelView actor={actor} /> });
    router = createRouter({ routeTree: root, history });
    await act(async () => {
      render(<RouterProvider router={router as never} />);
      await router.load();
    });
    const unload = block.mock.calls.at(-1)![0].enableBeforeUnload as () => boolean;
    expect(unload()).toBe(false);
    fireEvent.click(screen.getByRole('radio', { name: /^Dark/ }));
    expect(unload()).toBe(true);
  });
});
