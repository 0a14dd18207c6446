import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { StorefrontJson } from '#domain/catalog';
import {
  dashboardAccountMachine,
  type SaveStorefrontInput,
  storefrontDraftKey,
} from '../machines/dashboardAccount';
import type { ImageUploadsInput } from '../machines/imageUploads';
import { flushCoverage } from './coverage-store';
import {
  dashboardAccountModel,
  imageSizes,
  keptDraft,
  makeStorefront,
  sessionExpired,
} from './dashboardAccount.model';
import { flush, generatePaths, runPath } from './harness';

describe('dashboard account machine paths', () => {
  const paths = generatePaths(dashboardAccountModel);
  it('generates paths for every scenario', () => {
    for (const scenario of dashboardAccountModel.scenarios)
      expect(paths.some((p) => p.scenario === scenario)).toBe(true);
  });
  for (const path of paths) it(path.description, () => runPath(dashboardAccountModel, path));
  afterAll(() => flushCoverage('machine'));
});

const uploadedUrls: Record<string, string> = {
  logo: '/media/uploads/00000000-0000-4000-8000-000000000001/logo-new.png',
  banner: '/media/uploads/00000000-0000-4000-8000-000000000001/banner-new.jpg',
};

/** What the machine hands to its actors and announces (the paths check states, these the payloads). */
describe('dashboard account machine: requests and announcements', () => {
  function start(storefront: StorefrontJson | null) {
    const calls: Array<[string, unknown]> = [];
    const announced: Array<[string, StorefrontJson]> = [];
    const server = { current: storefront };
    const actor = createActor(
      dashboardAccountMachine.provide({
        actors: {
          // The imageUploads child: every image uploaded.
          uploadImages: fromPromise(async ({ input }: { input: ImageUploadsInput }) => {
            calls.push(['uploadImages', input.uploads.map((u) => [u.field, u.file.name, u.assetKind])]);
            return {
              urls: Object.fromEntries(input.uploads.map((u) => [u.field, uploadedUrls[u.field]])),
              error: null,
            };
          }) as never,
          saveStorefront: fromPromise(async ({ input }: { input: SaveStorefrontInput }) => {
            calls.push(['saveStorefront', input]);
            server.current = { ...server.current!, ...input.patch } as StorefrontJson;
            return server.current;
          }),
          setEnabled: fromPromise(async ({ input }) => {
            calls.push(['setEnabled', input]);
            server.current = { ...server.current!, enabled: input.enabled };
            return server.current;
          }),
        },
        actions: {
          announceSaved: (_, { storefront }) => announced.push(['saved', storefront]),
          announceEnabled: (_, { storefront }) => announced.push(['enabled', storefront]),
        },
      }),
      { input: { storefront } },
    ).start();
    return { actor, calls, announced, server };
  }
  const png = (name: string) => new File([new Uint8Array(10)], name, { type: 'image/png' });

  it('sends only the changed fields, trimmed, after uploading the new images; then nothing is unsaved', async () => {
    const { actor, calls, announced } = start(makeStorefront());
    actor.send({ type: 'account.change', field: 'name', value: '  Night Loops Two ' });
    actor.send({ type: 'account.change', field: 'description', value: 'Loops recorded at night.' });
    actor.send({ type: 'account.change', field: 'category', value: 'music' });
    actor.send({ type: 'account.file', field: 'logo', file: png('logo.png'), ...imageSizes['logo.png'] });
    expect(actor.getSnapshot().context.dirty).toBe(true);
    actor.send({ type: 'account.save' });
    await flush();
    expect(calls).toEqual([
      ['uploadImages', [['logo', 'logo.png', 'storefrontLogo']]],
      [
        'saveStorefront',
        {
          id: 'sf-details',
          patch: {
            name: 'Night Loops Two',
            category: 'music',
            logoUrl: '/media/uploads/00000000-0000-4000-8000-000000000001/logo-new.png',
          },
        },
      ],
    ]);
    const c = actor.getSnapshot().context;
    expect(c).toMatchObject({ dirty: false, error: null, logo: null });
    expect(c.saved).toEqual(c.draft);
    expect(c.saved.name).toBe('Night Loops Two');
    expect(announced.map(([what]) => what)).toEqual(['saved']);
  });

  it('does not save without changes, and a change undone by hand is no change', () => {
    const { actor } = start(makeStorefront());
    actor.send({ type: 'account.save' });
    expect(actor.getSnapshot().value).toEqual({ editing: 'idle' });
    actor.send({ type: 'account.change', field: 'theme', value: 'dark' });
    expect(actor.getSnapshot().context.dirty).toBe(true);
    actor.send({ type: 'account.change', field: 'theme', value: 'light' });
    expect(actor.getSnapshot().context.dirty).toBe(false);
    actor.send({ type: 'account.save' });
    expect(actor.getSnapshot().value).toEqual({ editing: 'idle' });
  });

  it('enables and disables with { enabled } only, keeping the unsaved draft', async () => {
    const { actor, calls, announced } = start(makeStorefront());
    actor.send({ type: 'account.change', field: 'name', value: 'Unsaved Name' });
    actor.send({ type: 'account.enabled.toggle' });
    await flush();
    actor.send({ type: 'account.enabled.toggle' });
    await flush();
    expect(calls).toEqual([
      ['setEnabled', { id: 'sf-details', enabled: false }],
      ['setEnabled', { id: 'sf-details', enabled: true }],
    ]);
    expect(announced.map(([what, s]) => `${what}:${s.enabled}`)).toEqual(['enabled:false', 'enabled:true']);
    expect(actor.getSnapshot().context).toMatchObject({ dirty: true, draft: { name: 'Unsaved Name' } });
  });

  it('refuses images below the least width and height and files over the size limit', () => {
    const { actor } = start(makeStorefront());
    actor.send({ type: 'account.file', field: 'banner', file: png('b.png'), width: 299, height: 100 });
    expect(actor.getSnapshot().context.error).toMatchObject({ code: 'IMAGE_MIN_WIDTH', field: 'banner' });
    actor.send({ type: 'account.file', field: 'banner', file: png('b.png'), width: 300, height: 99 });
    expect(actor.getSnapshot().context.error).toMatchObject({ code: 'IMAGE_MIN_HEIGHT', field: 'banner' });
    const big = new File([new Uint8Array(1_000_001)], 'big.png', { type: 'image/png' });
    actor.send({ type: 'account.file', field: 'logo', file: big, width: 500, height: 500 });
    expect(actor.getSnapshot().context.error).toMatchObject({ code: 'FILE_SIZE_BIG', field: 'logo' });
    expect(actor.getSnapshot().context.dirty).toBe(false);
    actor.send({ type: 'account.file', field: 'logo', file: png('ok.png'), width: 100, height: 100 });
    expect(actor.getSnapshot().context).toMatchObject({ error: null, dirty: true });
  });

  it('checks name, description, email and vanity URL in that order, stopping at the first error', () => {
    const { actor, calls } = start(makeStorefront());
    const broken = { name: 'x', description: 'x', contactEmail: 'nope', vanityUrl: 'a b' } as const;
    for (const [field, value] of Object.entries(broken).reverse())
      actor.send({ type: 'account.change', field: field as keyof typeof broken, value });
    const seen: Array<string | undefined> = [];
    for (const [field, value] of [
      ['name', 'Fixed Name'],
      ['description', 'A fixed bio.'],
      ['contactEmail', 'fixed@example.com'],
      ['vanityUrl', 'fixed-name'],
    ] as const) {
      actor.send({ type: 'account.save' });
      seen.push(`${actor.getSnapshot().context.error?.field}:${actor.getSnapshot().context.error?.code}`);
      actor.send({ type: 'account.change', field, value });
    }
    expect(seen).toEqual([
      'name:INVALID_VALUE',
      'description:INVALID_VALUE',
      'contactEmail:INVALID_VALUE',
      'vanityUrl:INVALID_VANITY_URL',
    ]);
    expect(calls).toEqual([]);
    actor.send({ type: 'account.save' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
  });

  it('starts without a storefront in noStorefront', () => {
    expect(start(null).actor.getSnapshot().value).toBe('noStorefront');
  });
});

describe('dashboard account: a save the session’s end interrupts', () => {
  /** The panel with a tab storage of its own, whose PATCH answers `answer`. */
  function panel(answer: () => Promise<StorefrontJson>, draft: Record<string, unknown> | null = null) {
    const storefront = makeStorefront({ id: 'sf-kept' });
    const kept = new Map<string, unknown>();
    const actor = createActor(
      dashboardAccountMachine.provide({
        actors: {
          uploadImages: fromPromise(async () => ({ urls: {}, error: null })) as never,
          saveStorefront: fromPromise(answer),
        },
        actions: {
          stashDraft: (_, { key, values }) => void kept.set(key, values),
          forgetDraft: (_, { key }) => void kept.delete(key),
        },
      }),
      { input: { storefront, draft } },
    ).start();
    return { actor, kept, key: storefrontDraftKey(storefront.id) };
  }

  it('keeps the edited values when the server answers 401, and opens with them again', async () => {
    const { actor, kept, key } = panel(() => Promise.reject(sessionExpired));
    actor.send({ type: 'account.change', field: 'name', value: 'Night Loops Two' });
    actor.send({ type: 'account.save' });
    await flush();
    expect(kept.get(key)).toMatchObject({ name: 'Night Loops Two', description: 'Loops recorded at night.' });
    expect(actor.getSnapshot().context.error).toBeNull();
    // Signed in again: the panel opens with the kept values over the storefront, unsaved.
    const again = panel(async () => makeStorefront({ id: 'sf-kept', name: 'Night Loops Two' }), {
      ...(kept.get(key) as object),
    });
    expect(again.actor.getSnapshot().context).toMatchObject({
      draft: { name: 'Night Loops Two' },
      dirty: true,
    });
    again.actor.send({ type: 'account.save' });
    await flush();
    expect(again.actor.getSnapshot().context.dirty).toBe(false);
    expect(again.kept.size).toBe(0);
  });

  it('drops kept values of the wrong kind, and forgets the draft on Discard', () => {
    const { actor, kept, key } = panel(() => new Promise(() => {}), keptDraft);
    kept.set(key, keptDraft);
    expect(actor.getSnapshot().context.draft).toMatchObject({
      name: 'Night Loops Restored',
      theme: 'dark',
      category: null,
      logoUrl: null,
    });
    actor.send({ type: 'account.discard' });
    expect(kept.size).toBe(0);
    expect(actor.getSnapshot().context.dirty).toBe(false);
  });
});
