import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { User } from '#domain/user';
import { type avatarUploadMachine, connectAvatarUpload } from '../../../machines/avatarUpload';
import { useApp } from '../AppContext';
import { Avatar, Button } from '../components';

/** The account's avatar with "Change avatar" and "Remove avatar"; its own machine per mount. */
export function AvatarEditor({
  machine,
  user,
  size = 112,
}: {
  machine: typeof avatarUploadMachine;
  user: User;
  size?: number;
}) {
  const { inspect } = useApp();
  const actor = useActorRef(machine, { input: { avatarUrl: user.avatarUrl }, inspect });
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  return <AvatarEditorView actor={actor} seed={user.walletAddress ?? user.id} alt={fullName} size={size} />;
}

export function AvatarEditorView({
  actor,
  seed,
  alt,
  size,
}: {
  actor: ActorRefFrom<typeof avatarUploadMachine>;
  seed: string;
  alt: string;
  size: number;
}) {
  const view = connectAvatarUpload(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  const inputId = useId();
  return (
    <div className="vt-avatar-editor" aria-busy={view.busy || undefined}>
      <Avatar src={view.avatarUrl ?? undefined} seed={seed} alt={alt} size={size} />
      <div className="vt-avatar-editor__actions">
        <label
          htmlFor={inputId}
          className="vt-button vt-button--secondary vt-button--sm"
          aria-disabled={!view.canChoose || undefined}
        >
          Change avatar
        </label>
        <input
          id={inputId}
          type="file"
          accept="image/png,image/gif,image/jpeg"
          className="vt-visually-hidden"
          aria-label="Change avatar"
          disabled={!view.canChoose}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) view.choose(file);
          }}
        />
        {view.canRemove && (
          <Button variant="ghost" size="sm" {...view.getRemoveButtonProps()}>
            Remove avatar
          </Button>
        )}
      </div>
      <p className="vt-muted vt-avatar-editor__hint" role="status">
        {view.status ?? 'Square PNG, GIF or JPEG, at least 256×256, up to 1 MB.'}
      </p>
      {view.error && (
        <p className="vt-form-error" role="alert">
          {view.error}
        </p>
      )}
    </div>
  );
}
