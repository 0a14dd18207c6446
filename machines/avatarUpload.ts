import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { checkImage, imageProblem } from '#domain/assets';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import type { ImageFacts } from '#domain/ports/uploads';
import type { User } from '#domain/user';
import type { ImageJobFile } from './imageJob';
import { type ImageUploadsOutput, imageUploadsMachine } from './imageUploads';
import { type ButtonProps, buttonProps } from './props';

export type { ImageFacts } from '#domain/ports/uploads';

/**
 * The avatar of the signed-in account: a chosen image is checked against the avatar rules
 * (PNG, GIF or JPEG; square; at least 256×256; at most 1 MB) before anything is sent, uploaded
 * (the imageUploads child: optimized first, plain on failure), then saved on the account; the account's new state is announced (the
 * header shows it at once). The avatar can also be removed (the identicon shows again).
 */
export interface AvatarUploadInput {
  avatarUrl: string | null;
}
export interface AvatarUploadContext extends AvatarUploadInput {
  file: ImageJobFile | null;
  error: ApiErrorBody | null;
}
export type AvatarUploadEvent = { type: 'avatar.choose'; file: ImageJobFile } | { type: 'avatar.remove' };

export const avatarUploadMachine = setup({
  types: {
    context: {} as AvatarUploadContext,
    events: {} as AvatarUploadEvent,
    input: {} as AvatarUploadInput,
    tags: {} as 'busy',
  },
  actors: {
    /** Reads the file's format, size and dimensions. */
    inspectImage: fromPromise<ImageFacts, { file: ImageJobFile }>(async () => {
      throw new Error('inspectImage not provided');
    }),
    /** Uploads the file as a userAvatar (optimized first) → its URL as avatarUrl. */
    uploadImages: imageUploadsMachine,
    /** PATCH users/me { avatarUrl } → the account. */
    saveAvatar: fromPromise<{ user: User }, { avatarUrl: string | null }>(async () => {
      throw new Error('saveAvatar not provided');
    }),
  },
  guards: {
    hasAvatar: ({ context }) => context.avatarUrl !== null,
    imageFits: (_, facts: ImageFacts) => checkImage('userAvatar', facts) === null,
    uploadFailed: (_, output: ImageUploadsOutput) => output.error !== null,
  },
  actions: {
    /** Tells the session the account changed. */
    announceUser: (_, _params: { user: User }) => {},
  },
}).createMachine({
  id: 'avatarUpload',
  context: ({ input }) => ({ ...input, file: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'avatar.choose': {
          target: 'inspecting',
          actions: assign({ file: ({ event }) => event.file, error: null }),
        },
        'avatar.remove': { guard: 'hasAvatar', target: 'removing', actions: assign({ error: null }) },
      },
    },
    inspecting: {
      tags: ['busy'],
      invoke: {
        id: 'inspectImage',
        src: 'inspectImage',
        input: ({ context }) => ({ file: context.file! }),
        onDone: [
          { guard: { type: 'imageFits', params: ({ event }) => event.output }, target: 'uploading' },
          {
            target: 'idle',
            actions: assign({
              error: ({ event }) => {
                const problem = imageProblem('userAvatar', event.output)!;
                return { ...problem, field: 'avatar', message: errorMessage(problem) };
              },
            }),
          },
        ],
        // A file the browser cannot decode is not an image of an accepted format.
        onError: {
          target: 'idle',
          actions: assign({
            error: ({ context }) => {
              const problem = imageProblem('userAvatar', {
                format: undefined,
                bytes: context.file!.size,
                width: undefined,
                height: undefined,
              })!;
              return { ...problem, field: 'avatar', message: errorMessage(problem) };
            },
          }),
        },
      },
    },
    uploading: {
      tags: ['busy'],
      invoke: {
        id: 'uploadImages',
        src: 'uploadImages',
        input: ({ context }) => ({
          uploads: [
            { field: 'avatarUrl', file: context.file!, assetKind: 'userAvatar' as const, optimize: true },
          ],
        }),
        onDone: [
          {
            guard: { type: 'uploadFailed', params: ({ event }) => event.output },
            target: 'idle',
            actions: assign({ error: ({ event }) => event.output.error }),
          },
          { target: 'saving', actions: assign({ avatarUrl: ({ event }) => event.output.urls.avatarUrl! }) },
        ],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveAvatar',
        src: 'saveAvatar',
        input: ({ context }) => ({ avatarUrl: context.avatarUrl }),
        onDone: {
          target: 'idle',
          actions: [
            assign({ avatarUrl: ({ event }) => event.output.user.avatarUrl, file: null }),
            { type: 'announceUser', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        id: 'saveAvatar',
        src: 'saveAvatar',
        input: { avatarUrl: null },
        onDone: {
          target: 'idle',
          actions: [
            assign({ avatarUrl: null, file: null }),
            { type: 'announceUser', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
  },
});

/** What the avatar editor shows. */
export interface AvatarUploadView {
  avatarUrl: string | null;
  busy: boolean;
  /** What is happening, for the status line. */
  status: string | null;
  canChoose: boolean;
  canRemove: boolean;
  error: string | null;
  /** The chosen file (from the file input). */
  choose: (file: ImageJobFile) => void;
  /** "Remove avatar". */
  getRemoveButtonProps: () => ButtonProps;
}

export function connectAvatarUpload(
  snapshot: SnapshotFrom<typeof avatarUploadMachine>,
  send: (event: AvatarUploadEvent) => void,
): AvatarUploadView {
  const { avatarUrl, error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  return {
    avatarUrl,
    busy,
    status: snapshot.matches('uploading')
      ? 'Uploading…'
      : snapshot.matches('saving') || snapshot.matches('removing')
        ? 'Saving…'
        : snapshot.matches('inspecting')
          ? 'Checking the image…'
          : null,
    canChoose: snapshot.can({ type: 'avatar.choose', file: { name: '', type: '', size: 0 } }),
    canRemove: snapshot.can({ type: 'avatar.remove' }),
    error: error ? errorMessage(error) : null,
    choose: (file) => send({ type: 'avatar.choose', file }),
    getRemoveButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'avatar.remove' }),
        disabled: !snapshot.can({ type: 'avatar.remove' }),
      }),
  };
}
