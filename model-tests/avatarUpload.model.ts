import { expect } from 'vitest';
import { avatarUploadMachine } from '../machines/avatarUpload';
import { after, expectWorking } from './expect';
import { makeUser } from './fixtures';
import type { MachineModel } from './harness';

export const AVATAR_FILE = { name: 'me.png', type: 'image/png', size: 40_000 };
export const AVATAR_URL = '/media/uploads/u1/userAvatar-0123456789abcdef.png';

export const avatarUploadModel: MachineModel<typeof avatarUploadMachine> = {
  machine: avatarUploadMachine,
  fakes: ['inspectImage', 'uploadImages', 'saveAvatar'],
  scenarios: [
    { name: 'no avatar yet', input: { avatarUrl: null } },
    { name: 'an avatar', input: { avatarUrl: AVATAR_URL } },
  ],
  events: () => [
    { type: 'avatar.choose', file: AVATAR_FILE },
    { type: 'avatar.remove' },
    {
      type: 'xstate.done.actor.inspectImage',
      output: { format: 'png', bytes: 40_000, width: 512, height: 512 },
    },
    {
      type: 'xstate.done.actor.inspectImage',
      output: { format: 'png', bytes: 40_000, width: 512, height: 300 },
    },
    { type: 'xstate.error.actor.inspectImage', error: new Error('not an image') },
    // The imageUploads child: the avatar uploaded, or refused.
    { type: 'xstate.done.actor.uploadImages', output: { urls: { avatarUrl: AVATAR_URL }, error: null } },
    {
      type: 'xstate.done.actor.uploadImages',
      output: {
        urls: {},
        error: { code: 'FILE_SIZE_BIG', field: 'avatarUrl', message: 'This file is too big.' },
      },
    },
    { type: 'xstate.done.actor.saveAvatar', output: { user: makeUser({ avatarUrl: AVATAR_URL }) } },
    { type: 'xstate.done.actor.saveAvatar', output: { user: makeUser({ avatarUrl: null }) } },
    {
      type: 'xstate.error.actor.saveAvatar',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.avatarUrl, s.context.error?.code ?? null]),
  expect: {
    idle: (o) => {
      const c = o.snapshot.context;
      expect(o.snapshot.hasTag('busy')).toBe(false);
      // A file that breaks the avatar rules (square, at least 256 × 256) is refused before anything is sent.
      if (after(o, 'done', 'inspectImage') || after(o, 'error', 'inspectImage')) {
        expect(c.error?.field).toBe('avatar');
        expect(
          o.calls.some((call) => call.name === 'uploadImages' && o.calls.indexOf(call) > o.calls.length - 2),
        ).toBe(false);
      }
      if (after(o, 'done', 'uploadImages')) expect(c.error?.code).toBe('FILE_SIZE_BIG');
      // Saved: the account's avatar; removed: none.
      if (after(o, 'done', 'saveAvatar'))
        expect(c.avatarUrl).toBe(
          o.before.value === 'removing'
            ? null
            : (o.event.output as { user: { avatarUrl: string | null } }).user.avatarUrl,
        );
      if (after(o, 'error', 'saveAvatar')) expect(c.error?.code).toBe('NETWORK_FAILURE');
    },
    inspecting: (o) => {
      expect(o.event.type).toBe('avatar.choose');
      expectWorking(o, 'inspectImage');
      expect((o.calls.at(-1)!.input as { file: { name: string } }).file.name).toBe(AVATAR_FILE.name);
    },
    uploading: (o) => {
      expect(o.event).toMatchObject({
        type: 'xstate.done.actor.inspectImage',
        output: { width: 512, height: 512 },
      });
      expectWorking(o, 'uploadImages');
      const [upload] = (o.calls.at(-1)!.input as { uploads: Array<Record<string, unknown>> }).uploads;
      expect(upload).toMatchObject({
        field: 'avatarUrl',
        assetKind: 'userAvatar',
        file: { name: AVATAR_FILE.name },
      });
    },
    // The uploaded URL is saved on the account.
    saving: (o) => {
      expect(o.event.type).toBe('xstate.done.actor.uploadImages');
      expectWorking(o, 'saveAvatar', { avatarUrl: AVATAR_URL });
    },
    removing: (o) => {
      expect(o.event.type).toBe('avatar.remove');
      expect(o.before.context.avatarUrl).not.toBeNull();
      expectWorking(o, 'saveAvatar', { avatarUrl: null });
    },
  },
};
