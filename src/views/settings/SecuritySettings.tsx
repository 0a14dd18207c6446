import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  connectSettingsForm,
  type SettingsFormEvent,
  type settingsFormMachine,
} from '../../../machines/settingsForm';
import { useApp } from '../AppContext';
import { Button, TextInput } from '../components';
import { EditActions } from './EditActions';
import { formValues } from './form';

const settingsRoute = getRouteApi('/_authenticated/settings');

/** Settings → Security: change password with a view/edit toggle. */
export function SecuritySettings() {
  const { inspect } = useApp();
  const machine = settingsRoute.useLoaderData({ select: (d) => d.settingsForm });
  const actor = useActorRef(machine, { input: { kind: 'password' }, inspect });
  return <SecuritySettingsView actor={actor} />;
}

export function SecuritySettingsView({ actor }: { actor: ActorRefFrom<typeof settingsFormMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectSettingsForm(snapshot, (event: SettingsFormEvent) => actor.send(event));
  const editing = view.mode === 'editing';
  const errors = view.fieldErrors;

  return (
    <form
      className="vt-card"
      noValidate
      onSubmit={(e) => view.submit(formValues(e, ['oldPassword', 'newPassword', 'confirm']))}
    >
      <header className="vt-card__header">
        <h2>Password</h2>
        {!editing && (
          <Button type="button" variant="secondary" disabled={!view.canEdit} onClick={view.edit}>
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
            error={errors.oldPassword}
          />
          <TextInput
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            error={errors.newPassword}
          />
          <TextInput
            label="Confirm new password"
            name="confirm"
            type="password"
            autoComplete="new-password"
            error={errors.confirm}
          />
          {view.error && (
            <p className="vt-form-error" role="alert">
              {view.error}
            </p>
          )}
          <EditActions view={view} save="Save password" />
        </>
      ) : (
        <p className="vt-muted">••••••••••</p>
      )}
    </form>
  );
}
