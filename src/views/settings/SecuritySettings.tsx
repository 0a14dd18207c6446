import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { settingsFormMachine } from '../../../machines/settingsForm';
import { useApp } from '../AppContext';
import { Button, TextInput } from '../components';
import { EditActions } from './EditActions';
import { formValues } from './form';

const settingsRoute = getRouteApi('/settings');

/** Settings → Security: change password with a view/edit toggle. */
export function SecuritySettings() {
  const { inspect } = useApp();
  const machine = settingsRoute.useLoaderData({ select: (d) => d.settingsForm });
  const actor = useActorRef(machine, { input: { kind: 'password' }, inspect });
  return <SecuritySettingsView actor={actor} />;
}

export function SecuritySettingsView({ actor }: { actor: ActorRefFrom<typeof settingsFormMachine> }) {
  const editing = useSelector(actor, (s) => !s.matches('viewing'));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { errors, error } = useSelector(actor, (s) => s.context);

  return (
    <form
      className="vt-card"
      noValidate
      onSubmit={(e) =>
        actor.send({
          type: 'settings.submit',
          values: formValues(e, ['oldPassword', 'newPassword', 'confirm']),
        })
      }
    >
      <header className="vt-card__header">
        <h2>Password</h2>
        {!editing && (
          <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'settings.edit' })}>
            Change password
          </Button>
        )}
      </header>
      {editing ? (
        <>
          <TextInput
            label="Current password"
            name="oldPassword"
            type="password"
            autoComplete="current-password"
            error={errors.oldPassword?.message}
          />
          <TextInput
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            error={errors.newPassword?.message}
          />
          <TextInput
            label="Confirm new password"
            name="confirm"
            type="password"
            autoComplete="new-password"
            error={errors.confirm?.message}
          />
          {error && (
            <p className="vt-form-error" role="alert">
              {errorMessage(error)}
            </p>
          )}
          <EditActions actor={actor} busy={busy} save="Save password" />
        </>
      ) : (
        <p className="vt-muted">••••••••••</p>
      )}
    </form>
  );
}
