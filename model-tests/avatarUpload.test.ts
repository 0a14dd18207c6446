import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { avatarUploadMachine, connectAvatarUpload, type ImageFacts } from '../machines/avatarUpload';
import type { ImageJobFile } from '../machines/imageJob';
import type { ImageUploadsInput } from '../machines/imageUploads';
import { AVATAR_FILE, AVATAR_URL, avatarUploadModel } from './avatarUpload.model';
import { flushCoverage } from './coverage-store';
import { makeUser } from './fixtures';
import { generatePaths, runPath } from './harness';

describe('avatarUpload machine paths', () => {
  const paths = generatePaths(avatarUploadModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(avatarUploadModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('avatarUpload', () => {
  const actors = (
    facts: { width: number; height: number; bytes?: number; format?: string },
    uploaded: unknown[],
  ) =>
    avatarUploadMachine.provide({
      actors: {
        inspectImage: fromPromise<ImageFacts, { file: ImageJobFile }>(async () => ({
          format: 'png',
          bytes: 40_000,
          ...facts,
        })),
        // The imageUploads child: the avatar uploaded.
        uploadImages: fromPromise(async ({ input }: { input: ImageUploadsInput }) => {
          for (const u of input.uploads) uploaded.push([u.file, u.assetKind]);
          return { urls: { avatarUrl: AVATAR_URL }, error: null };
        }) as never,
        saveAvatar: fromPromise(async ({ input }) => ({ user: makeUser({ avatarUrl: input.avatarUrl }) })),
      },
    });

  it('refuses an image that breaks the avatar rules before sending anything', async () => {
    for (const [facts, message] of [
      [
        { width: 512, height: 400 },
        'This image is 512 × 400 pixels: it must be square (as wide as it is high).',
      ],
      [{ width: 200, height: 200 }, 'This image is 200 × 200 pixels: it must be at least 256 × 256.'],
      [{ width: 512, height: 512, bytes: 1_000_001 }, 'This file is 1.1 MB: the limit is 1 MB.'],
      [
        { width: 512, height: 512, format: 'webp' },
        'This file type is not supported. Use a PNG, GIF or JPG image.',
      ],
    ] as const) {
      const uploaded: unknown[] = [];
      const actor = createActor(actors(facts, uploaded), { input: { avatarUrl: null } }).start();
      actor.send({ type: 'avatar.choose', file: AVATAR_FILE });
      await waitFor(actor, (s) => s.matches('idle'));
      expect(connectAvatarUpload(actor.getSnapshot(), () => {}).error).toBe(message);
      expect(uploaded).toEqual([]);
    }
  });

  it('uploads a square image, saves it on the account and announces the account', async () => {
    const uploaded: unknown[] = [];
    const announced: unknown[] = [];
    const actor = createActor(
      actors({ width: 256, height: 256 }, uploaded).provide({
        actions: { announceUser: (_, { user }) => announced.push(user.avatarUrl) },
      }),
      { input: { avatarUrl: null } },
    ).start();
    const view = () => connectAvatarUpload(actor.getSnapshot(), (event) => actor.send(event));
    expect(view().getRemoveButtonProps()).toMatchObject({ disabled: true, 'data-state': 'disabled' });
    view().choose(AVATAR_FILE);
    await waitFor(actor, (s) => s.matches('idle') && s.context.avatarUrl !== null);
    expect(uploaded).toEqual([[AVATAR_FILE, 'userAvatar']]);
    expect(announced).toEqual([AVATAR_URL]);
    expect(view()).toMatchObject({ avatarUrl: AVATAR_URL, canRemove: true, error: null });
    expect(view().getRemoveButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
  });
});
