import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { SESSION_EXPIRED_TEXT } from '#domain/apiError';
import type { ImageFacts } from '#domain/assets';
import type { BlueprintJson } from '#domain/catalog';
import {
  blueprintDraftKey,
  blueprintFormMachine,
  connectBlueprintForm,
  type SaveBlueprintInput,
} from '../machines/blueprintForm';
import type { ImageUpload, ImageUploadsInput } from '../machines/imageUploads';
import { ASSET_FILE, blueprintFormModel, FITTING_IMAGE, PREVIEW_FILE } from './blueprintForm.model';
import { flushCoverage } from './coverage-store';
import { makeBlueprint } from './fixtures';
import { generatePaths, runPath } from './harness';

describe('blueprintForm machine paths', () => {
  const paths = generatePaths(blueprintFormModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(10));
  for (const path of paths) it(path.description, () => runPath(blueprintFormModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('blueprintForm requests', () => {
  const run = (facts: ImageFacts = FITTING_IMAGE) => {
    const uploads: Array<Omit<ImageUpload, 'field'>> = [];
    const saves: SaveBlueprintInput[] = [];
    const actor = createActor(
      blueprintFormMachine.provide({
        actors: {
          // Every chosen file reads as `facts` (an 800 × 800 PNG passes both files' rules).
          inspectImage: fromPromise(async () => facts),
          // The imageUploads child: every file uploaded.
          uploadImages: fromPromise(async ({ input }: { input: ImageUploadsInput }) => {
            for (const { field: _, ...upload } of input.uploads) uploads.push(upload);
            const url = (u: ImageUpload) => `/media/uploads/u1/${u.assetKind}.${u.file.type.split('/')[1]}`;
            return { urls: Object.fromEntries(input.uploads.map((u) => [u.field, url(u)])), error: null };
          }) as never,
          saveBlueprint: fromPromise(async ({ input }) => {
            saves.push(input);
            return makeBlueprint();
          }),
        },
      }),
      { input: { blueprint: null } },
    ).start();
    return { actor, uploads, saves };
  };

  it('checks every field with the shared schema before uploading anything', () => {
    const { actor, uploads } = run();
    actor.send({ type: 'form.change', field: 'price', value: '10000.01' });
    actor.send({ type: 'form.change', field: 'quantity', value: '1.5' });
    actor.send({ type: 'form.submit' });
    expect(Object.keys(actor.getSnapshot().context.errors).sort()).toEqual([
      'assetUrl',
      'description',
      'previewImageUrl',
      'price',
      'quantity',
      'title',
    ]);
    expect(actor.getSnapshot().context.errors.previewImageUrl?.code).toBe('preview_required');
    expect(actor.getSnapshot().context.errors.assetUrl?.code).toBe('asset_required');
    expect(uploads).toEqual([]);
  });

  it('uploads the files first (optimizing PNG/JPEG when ticked, never GIF), then posts cents', async () => {
    const { actor, uploads, saves } = run();
    const set = (field: 'title' | 'description' | 'price' | 'quantity' | 'royaltyPercent', value: string) =>
      actor.send({ type: 'form.change', field, value });
    set('title', '  Night Loop  ');
    set('description', 'A looping night drive.');
    set('price', '12.5');
    set('quantity', '25');
    set('royaltyPercent', '7.5');
    actor.send({ type: 'form.change', field: 'optimizeAsset', value: true });
    actor.send({ type: 'form.file', field: 'preview', file: PREVIEW_FILE });
    actor.send({ type: 'form.file', field: 'asset', file: ASSET_FILE });
    await waitFor(actor, (s) => s.matches({ editing: 'idle' }));
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(uploads).toEqual([
      { file: PREVIEW_FILE, assetKind: 'blueprintPreviewImage', optimize: true },
      { file: ASSET_FILE, assetKind: 'blueprintAsset', optimize: false },
    ]);
    expect(saves).toEqual([
      {
        id: null,
        body: {
          title: '  Night Loop  ',
          description: 'A looping night drive.',
          price: 1250,
          quantity: 25,
          royaltyPercent: 7.5,
          previewImageUrl: '/media/uploads/u1/blueprintPreviewImage.png',
          assetUrl: '/media/uploads/u1/blueprintAsset.gif',
          optimizePreview: true,
          optimizeAsset: true,
          type: 'standalone',
          drop: false,
        },
      },
    ]);
    expect(actor.getSnapshot().output).toEqual({ blueprint: makeBlueprint() });
  });

  it('refuses a file that breaks its rules at its field, at once and on Save, before any upload', async () => {
    const { actor, uploads } = run({ format: 'png', bytes: 200_000, width: 120, height: 120 });
    actor.send({ type: 'form.file', field: 'preview', file: PREVIEW_FILE });
    await waitFor(actor, (s) => s.matches({ editing: 'idle' }));
    const view = () => connectBlueprintForm(actor.getSnapshot(), actor.send);
    const message = 'This image is 120 × 120 pixels: it must be at least 200 × 200.';
    expect(view().fieldErrors.previewImageUrl).toBe(message);
    actor.send({ type: 'form.submit' });
    expect(view().fieldErrors.previewImageUrl).toBe(message);
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
    expect(uploads).toEqual([]);
    expect(view().fileRules).toEqual({
      preview: 'JPG, PNG or GIF, at least 200 × 200 pixels, up to 1 MB.',
      asset: 'JPG, PNG or GIF, at least 200 × 200 pixels, up to 2 MB.',
    });
  });

  it('names the limits of the text fields', () => {
    const { actor } = run();
    actor.send({ type: 'form.change', field: 'description', value: 'x'.repeat(2001) });
    actor.send({ type: 'form.change', field: 'title', value: 'x'.repeat(201) });
    actor.send({ type: 'form.submit' });
    const view = connectBlueprintForm(actor.getSnapshot(), actor.send);
    expect(view.fieldErrors.description).toBe('Description must be 1–2,000 characters.');
    expect(view.fieldErrors.title).toBe('Title must be 1–200 characters.');
  });

  it('asks before discarding changes, and not when nothing changed', () => {
    const { actor } = run();
    actor.send({ type: 'form.cancel' });
    expect(actor.getSnapshot().value).toBe('canceled');
    const second = run().actor;
    second.send({ type: 'form.change', field: 'optimizePreview', value: false });
    second.send({ type: 'form.cancel' });
    expect(second.getSnapshot().value).toBe('confirmingCancel');
  });
});

describe('blueprintForm: a save the session’s end interrupts', () => {
  // Where the server stores a creator's uploads (the only URLs a kept draft may name).
  const PREVIEW_URL = '/media/uploads/00000000-0000-4000-8000-000000000001/blueprintPreviewImage-a.png';
  const ASSET_URL = '/media/uploads/00000000-0000-4000-8000-000000000001/blueprintAsset-a.gif';

  it('keeps the values and uploaded URLs on a 401, opens with them again, and forgets them once saved', async () => {
    const kept = new Map<string, unknown>();
    const form = (save: () => Promise<BlueprintJson>, draft: Record<string, unknown> | null = null) =>
      createActor(
        blueprintFormMachine.provide({
          actors: {
            inspectImage: fromPromise(async () => FITTING_IMAGE),
            uploadImages: fromPromise(async () => ({
              urls: { previewImageUrl: PREVIEW_URL, assetUrl: ASSET_URL },
              error: null,
            })) as never,
            saveBlueprint: fromPromise(save),
          },
          actions: {
            stashDraft: (_, { key, values }) => void kept.set(key, values),
            forgetDraft: (_, { key }) => void kept.delete(key),
          },
        }),
        { input: { blueprint: null, draft } },
      ).start();
    const first = form(() =>
      Promise.reject({ status: 401, body: { code: 'UNAUTHORIZED', message: SESSION_EXPIRED_TEXT } }),
    );
    for (const [field, value] of [
      ['title', 'Night Loop'],
      ['description', 'A looping night drive.'],
      ['price', '12.50'],
      ['quantity', '25'],
    ] as const)
      first.send({ type: 'form.change', field, value });
    first.send({ type: 'form.file', field: 'preview', file: PREVIEW_FILE });
    first.send({ type: 'form.file', field: 'asset', file: ASSET_FILE });
    await waitFor(first, (s) => s.matches({ editing: 'idle' }));
    first.send({ type: 'form.submit' });
    await waitFor(first, (s) => s.matches('editing') && !s.hasTag('busy'));
    const draft = kept.get(blueprintDraftKey(null)) as Record<string, unknown>;
    expect(draft).toMatchObject({
      title: 'Night Loop',
      price: '12.50',
      previewImageUrl: PREVIEW_URL,
      assetUrl: ASSET_URL,
    });
    expect(connectBlueprintForm(first.getSnapshot(), first.send).error).toBeNull();

    // Signed in again, the dialog opens with the kept values and files, and saves without uploading.
    const again = form(async () => makeBlueprint(), { ...draft });
    const view = connectBlueprintForm(again.getSnapshot(), again.send);
    expect(view.values).toMatchObject({ title: 'Night Loop', quantity: '25' });
    expect(view.urls).toEqual({ previewImageUrl: PREVIEW_URL, assetUrl: ASSET_URL });
    again.send({ type: 'form.submit' });
    await waitFor(again, (s) => s.status === 'done');
    expect(kept.size).toBe(0);
  });
});
