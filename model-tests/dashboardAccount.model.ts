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
import type { MachineModel } from './harness';

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
};
