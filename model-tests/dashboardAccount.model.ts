import { expect } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { StorefrontJson } from '#domain/catalog';
import { storefrontFieldError as fieldError } from '#domain/storefronts';
import {
  type AccountTextField,
  accountFieldOrder,
  accountValues,
  changedFields,
  type DashboardAccountContext,
  dashboardAccountMachine,
} from '../machines/dashboardAccount';
import { connectDashboardAccount } from '../machines/dashboardAccountView';
import { after, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof dashboardAccountMachine>;
const view = (o: O) => connectDashboardAccount(o.snapshot, () => {});
/** The fields of the draft that differ from the saved storefront (what a save sends). */
const differing = (o: O) => {
  const { saved, draft } = o.snapshot.context;
  return Object.keys(draft).filter(
    (k) =>
      JSON.stringify(draft[k as keyof typeof draft] ?? null) !==
      JSON.stringify(saved[k as keyof typeof saved] ?? null),
  );
};
/** Unsaved changes: a field differs from the saved storefront or an image waits for upload. */
const unsaved = (o: O) => differing(o).length > 0 || !!o.snapshot.context.logo || !!o.snapshot.context.banner;

/** An event with its payload (actor outcomes carry output or error). */
type Ev = EventObject & Record<string, unknown>;

/**
 * Dashboard → Account paths. Each scenario explores one concern with its own few events (the
 * scenario is told by the storefront's id), so that the graph stays small:
 * - details: name and theme, save (and its failures), discard, leaving with unsaved changes;
 * - images: logo and banner (chosen, too small, removed), uploads and their failures, then the save;
 * - enabled: the enable/disable toggle beside an unsaved category change;
 * - order: fields broken from the last to the first, so every save stops at the first invalid one
 *   (name, description, email, vanity URL) and the fix of that field leads to the next one;
 * - restored: the panel opens with a draft the tab kept (a save the session's end interrupted);
 * - none: no storefront yet.
 * A successful save ends the exploration (what follows is the same as from the start).
 */
const uploaded = (name: string) => `/media/uploads/00000000-0000-4000-8000-000000000001/${name}`;
export function makeStorefront(over: Partial<StorefrontJson> = {}): StorefrontJson {
  return {
    id: 'sf-details',
    name: 'Night Loops',
    description: 'Loops recorded at night.',
    category: null,
    theme: 'light',
    font: null,
    logoUrl: null,
    bannerUrl: null,
    contactEmail: 'hello@example.com',
    vanityUrl: 'night-loops',
    enabled: true,
    ownerId: 'u1',
    createdAt: '2026-01-01T00:00:00.000Z',
    previews: [],
    blueprintCount: 0,
    shareImage: { url: '/og/s/night-loops.png?v=0123456789abcdef', width: 1200, height: 630 },
    ...over,
  };
}

export const storefronts = {
  details: makeStorefront({ id: 'sf-details' }),
  images: makeStorefront({ id: 'sf-images', logoUrl: uploaded('logo-old.png') }),
  enabled: makeStorefront({ id: 'sf-enabled' }),
  order: makeStorefront({ id: 'sf-order' }),
  restored: makeStorefront({ id: 'sf-restored' }),
};
/** What a tab kept of a save the session's end interrupted (with values of the wrong kind it drops). */
export const keptDraft = { name: 'Night Loops Restored', theme: 'dark', category: 'cooking', logoUrl: 5 };
/** The answer to a save after the session ended elsewhere. */
export const sessionExpired = {
  status: 401,
  body: { code: 'UNAUTHORIZED', message: 'Your session has expired. Please log in again.' },
};

/** Image sizes the (fake) browser reads from these files. */
export const imageSizes: Record<string, { width: number; height: number }> = {
  'logo.png': { width: 400, height: 400 },
  'tiny.png': { width: 50, height: 50 },
  'banner.jpg': { width: 1500, height: 300 },
};
const file = (name: string, type: string, size: number) => new File([new Uint8Array(size)], name, { type });
const logoFile = () => file('logo.png', 'image/png', 2048);
const tinyFile = () => file('tiny.png', 'image/png', 1024);
const bannerFile = () => file('banner.jpg', 'image/jpeg', 4096);

const broken: Record<AccountTextField, string> = {
  name: 'x',
  description: 'x',
  contactEmail: 'nope',
  vanityUrl: 'a b',
};
const fixed: Record<AccountTextField, string> = {
  name: 'Night Loops Two',
  description: 'Loops and stems, recorded at night.',
  contactEmail: 'shop@example.com',
  vanityUrl: 'night-loops-two',
};
const change = (field: string, value: unknown) => ({ type: 'account.change', field, value }) as Ev;

/** What the server answers to the PATCH: the storefront with the draft's changes. */
const patched = (c: DashboardAccountContext): StorefrontJson => ({
  ...c.storefront!,
  ...changedFields(c.saved, c.draft),
});
const inputOf = (c: DashboardAccountContext) =>
  Object.values(storefronts).find((s) => s.id === c.storefront?.id) ?? null;
const savedChanged = (c: DashboardAccountContext) =>
  JSON.stringify(c.saved) !== JSON.stringify(accountValues(inputOf(c)));

const serverError = (code: string, field?: string) => ({
  body: { code, message: `server says ${code}`, ...(field ? { field } : {}) },
});

function detailsEvents(s: AnyMachineSnapshot): Ev[] {
  const c = s.context as DashboardAccountContext;
  return [
    change('name', fixed.name),
    change('theme', 'dark'),
    { type: 'xstate.done.actor.saveStorefront', output: patched(c) },
    {
      type: 'xstate.error.actor.saveStorefront',
      error: serverError('STOREFRONT_NAME_EXISTS', 'name'),
    },
    { type: 'xstate.error.actor.saveStorefront', error: { code: 'NETWORK_FAILURE' } },
    { type: 'xstate.error.actor.saveStorefront', error: sessionExpired },
    { type: 'account.leave' },
    { type: 'account.leave.confirm' },
    { type: 'account.leave.cancel' },
  ];
}

function imageEvents(s: AnyMachineSnapshot): Ev[] {
  const c = s.context as DashboardAccountContext;
  // What the imageUploads child answers for the chosen images: all uploaded, the logo refused, or
  // the banner refused after the logo went up.
  const sent = [...(c.logo ? ['logo'] : []), ...(c.banner ? ['banner'] : [])];
  const urls = { logo: uploaded('logo.png'), banner: uploaded('banner.jpg') } as Record<string, string>;
  const done = (fields: string[]) => Object.fromEntries(fields.map((f) => [f, urls[f]]));
  const refused = (code: string, field: string) => ({ code, field, message: `server says ${code}` });
  const events: Ev[] = [
    { type: 'xstate.done.actor.uploadImages', output: { urls: done(sent), error: null } },
    ...(sent[0] === 'logo'
      ? [
          {
            type: 'xstate.done.actor.uploadImages',
            output: { urls: {}, error: refused('FILE_SIZE_BIG', 'logo') },
          },
        ]
      : []),
    ...(sent.includes('banner')
      ? [
          {
            type: 'xstate.done.actor.uploadImages',
            output: { urls: done(sent.slice(0, -1)), error: refused('IMAGE_MIN_HEIGHT', 'banner') },
          },
        ]
      : []),
    { type: 'xstate.done.actor.saveStorefront', output: patched(c) },
    { type: 'xstate.error.actor.saveStorefront', error: { code: 'NETWORK_FAILURE' } },
  ];
  // A new logo, a too small one (refused) or none; a new banner. Each once, from the saved images.
  if (!c.logo && c.draft.logoUrl === c.saved.logoUrl) {
    events.push({ type: 'account.file', field: 'logo', file: logoFile(), ...imageSizes['logo.png'] });
    if (!c.dirty)
      events.push({ type: 'account.file', field: 'logo', file: tinyFile(), ...imageSizes['tiny.png'] });
    if (!c.banner) events.push({ type: 'account.file', field: 'logo', file: null });
  }
  if (!c.banner && c.draft.bannerUrl === c.saved.bannerUrl)
    events.push({ type: 'account.file', field: 'banner', file: bannerFile(), ...imageSizes['banner.jpg'] });
  return events;
}

function enabledEvents(s: AnyMachineSnapshot): Ev[] {
  const c = s.context as DashboardAccountContext;
  return [
    { type: 'account.enabled.toggle' },
    { type: 'xstate.done.actor.setEnabled', output: { ...c.storefront!, enabled: !c.storefront!.enabled } },
    { type: 'xstate.error.actor.setEnabled', error: { code: 'NETWORK_FAILURE' } },
    change('category', 'music'),
    { type: 'xstate.done.actor.saveStorefront', output: patched(c) },
  ];
}

function orderEvents(s: AnyMachineSnapshot): Ev[] {
  const c = s.context as DashboardAccountContext;
  const invalid = accountFieldOrder.map((f) => fieldError(f, c.draft[f]) !== null);
  const events: Ev[] = [
    { type: 'xstate.done.actor.saveStorefront', output: patched(c) },
    {
      type: 'xstate.error.actor.saveStorefront',
      error: serverError('VANITY_URL_EXISTS', 'vanityUrl'),
    },
  ];
  accountFieldOrder.forEach((field, i) => {
    // Broken from the last field backwards: the invalid fields always follow the valid ones.
    if (!c.error && !invalid[i] && invalid.slice(i + 1).every(Boolean))
      events.push(change(field, broken[field]));
    if (c.error?.field === field) events.push(change(field, fixed[field]));
  });
  return events;
}

export const dashboardAccountModel: MachineModel<typeof dashboardAccountMachine> = {
  machine: dashboardAccountMachine,
  fakes: ['uploadImages', 'saveStorefront', 'setEnabled'],
  scenarios: [
    { name: 'no storefront', input: { storefront: null } },
    { name: 'details', input: { storefront: storefronts.details } },
    { name: 'images', input: { storefront: storefronts.images } },
    { name: 'enabled', input: { storefront: storefronts.enabled } },
    { name: 'order', input: { storefront: storefronts.order } },
    { name: 'restored', input: { storefront: storefronts.restored, draft: keptDraft } },
  ],
  events: (s) => {
    const c = s.context as DashboardAccountContext;
    if (!c.storefront || savedChanged(c)) return [];
    const common: Ev[] = [{ type: 'account.save' }, { type: 'account.discard' }];
    switch (c.storefront.id) {
      case storefronts.details.id:
        return [...common, ...detailsEvents(s)];
      case storefronts.images.id:
        return [...common, ...imageEvents(s)];
      case storefronts.enabled.id:
        return [...common, ...enabledEvents(s)];
      case storefronts.restored.id:
        return [
          ...common,
          { type: 'xstate.done.actor.uploadImages', output: { urls: {}, error: null } },
          { type: 'xstate.done.actor.saveStorefront', output: patched(c) },
          { type: 'xstate.error.actor.saveStorefront', error: sessionExpired },
        ];
      default:
        return [{ type: 'account.save' }, ...orderEvents(s)];
    }
  },
  // Everything the guards read: the values (draft and saved), the chosen files, enabled, the error.
  serializeState: (s) => {
    const c = s.context as DashboardAccountContext;
    return JSON.stringify([
      s.value,
      c.draft,
      c.saved,
      c.logo?.name ?? null,
      c.banner?.name ?? null,
      c.dirty,
      c.storefront?.enabled ?? null,
      c.error?.code ?? null,
      c.error?.field ?? null,
    ]);
  },
  expect: {
    // "Create storefront" when there is none.
    noStorefront: (o) => {
      expect(o.snapshot.context.storefront).toBeNull();
      expect(view(o).panel).toBe('noStorefront');
    },
    editing: (o) => expect(view(o).dirty).toBe(unsaved(o)),
    'editing.idle': (o) => {
      const v = view(o);
      expect(v).toMatchObject({ panel: 'idle', busy: false });
      if (o.event.type === 'account.change')
        expect(v.values[o.event.field as AccountTextField]).toBe(o.event.value);
      // Save checks name, description, email and vanity URL in that order and stops at the first error.
      if (o.event.type === 'account.save') {
        const first = accountFieldOrder.find((f) => fieldError(f, o.snapshot.context.draft[f]) !== null);
        expect(first).toBeDefined();
        expect(v.errorField).toBe(first);
      }
      if (after(o, 'done', 'saveStorefront')) {
        expect(v.storefront).toEqual(o.event.output);
        expect(v.dirty).toBe(false);
        expect(v.formError).toBeNull();
      }
      if (after(o, 'error', 'saveStorefront')) {
        const body = (o.event.error as { body?: { code: string; field?: string; message: string } }).body;
        if (body?.code === 'UNAUTHORIZED') expect(v.formError).toBeNull();
        else if (body?.field)
          expect((v.fieldErrors as Record<string, string>)[body.field]).toBe(body.message);
        else expect(v.formError).toBeTruthy();
        // A refused save keeps the draft.
        expect(o.snapshot.context.draft).toEqual(o.before.context.draft);
      }
      if (after(o, 'done', 'setEnabled'))
        expect(v.enabled).toBe((o.event.output as { enabled: boolean }).enabled);
      if (after(o, 'error', 'setEnabled')) expect(v.formError).toBeTruthy();
      if (after(o, 'done', 'uploadImages')) {
        const field = (o.event.output as { error: { field: string } }).error.field;
        expect(v.errorField).toBe(field);
      }
      // Discard and "leave anyway" go back to the saved storefront.
      if (o.event.type === 'account.discard' || o.event.type === 'account.leave.confirm') {
        expect(o.snapshot.context.draft).toEqual(o.snapshot.context.saved);
        expect(v.dirty).toBe(false);
      }
    },
    // Leaving with unsaved changes asks.
    'editing.confirmingLeave': (o) => {
      expect(o.event.type).toBe('account.leave');
      expect(unsaved(o)).toBe(true);
      expect(view(o).panel).toBe('confirmingLeave');
    },
    'editing.saving': (o) => {
      expect(view(o)).toMatchObject({ panel: 'saving', busy: true });
      for (const f of accountFieldOrder) expect(fieldError(f, o.snapshot.context.draft[f])).toBeNull();
    },
    // New images go up first, then the PATCH carries the changed fields only.
    'editing.saving.uploading': (o) => {
      expect(o.event.type).toBe('account.save');
      expectWorking(o, 'uploadImages');
      const sent = (o.calls.at(-1)!.input as { uploads: Array<{ field: string; file: unknown }> }).uploads;
      const c = o.snapshot.context;
      expect(sent.map((u) => [u.field, u.file])).toEqual([
        ...(c.logo ? [['logo', c.logo]] : []),
        ...(c.banner ? [['banner', c.banner]] : []),
      ]);
    },
    'editing.saving.patching': (o) => {
      expect(o.event.type).toBe('xstate.done.actor.uploadImages');
      const c = o.snapshot.context;
      expectWorking(o, 'saveStorefront');
      const input = o.calls.at(-1)!.input as { id: string; patch: Record<string, unknown> };
      expect(input.id).toBe(c.storefront!.id);
      expect(Object.keys(input.patch).sort()).toEqual(differing(o).sort());
      const urls = (o.event.output as { urls: Record<string, string> }).urls;
      if (urls.logo) expect(input.patch.logoUrl).toBe(urls.logo);
      if (urls.banner) expect(input.patch.bannerUrl).toBe(urls.banner);
    },
    // Enable/disable is its own PATCH, of the opposite of what the storefront is.
    'editing.toggling': (o) => {
      expect(o.event.type).toBe('account.enabled.toggle');
      const sf = o.snapshot.context.storefront!;
      expectWorking(o, 'setEnabled', { id: sf.id, enabled: !sf.enabled });
      expect(view(o)).toMatchObject({ panel: 'toggling', busy: true });
    },
  },
};
