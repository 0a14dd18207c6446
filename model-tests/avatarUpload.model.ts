import { avatarUploadMachine } from '../machines/avatarUpload';
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
};
