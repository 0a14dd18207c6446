import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { SUPPORT_EMAIL } from '#domain/constants';
import type { User } from '#domain/user';
import {
  connectSettingsForm,
  type SettingsFormEvent,
  settingsDraftKey,
  type settingsFormMachine,
} from '../../../machines/settingsForm';
import { useApp } from '../AppContext';
import { Button, TextInput } from '../components';
import { EditActions } from './EditActions';
import { formValues } from './form';
import { KycRow } from './KycRow';

const settingsRoute = getRouteApi('/_authenticated/settings');

/** Settings → Account: edit/save toggle for email, names and username; KYC row; delete-account note. */
export function AccountSettings() {
  const { session, inspect, drafts } = useApp();
  const machine = settingsRoute.useLoaderData({ select: (d) => d.settingsForm });
  const user = useSelector(session, (s) => s.context.user);
  // A save the session's end interrupted comes back in edit mode.
  const draft = drafts.read(settingsDraftKey('account'));
  const actor = useActorRef(machine, { input: { kind: 'account', draft }, inspect });
  if (!user) return null;
  return <AccountSettingsView actor={actor} user={user} kycRow={<KycRow user={user} />} />;
}

export function AccountSettingsView({
  actor,
  user,
  kycRow,
}: {
  actor: ActorRefFrom<typeof settingsFormMachine>;
  user: User;
  /** The identity verification row (its own machine). */
  kycRow?: ReactNode;
}) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectSettingsForm(snapshot, (event: SettingsFormEvent) => actor.send(event));
  const editing = view.mode === 'editing';
  const shown = view.fieldErrors;
  /** What a field shows: in edit mode the form's own values (a restored draft), else the account's. */
  const shownValue = (field: 'email' | 'username' | 'firstName' | 'lastName') =>
    (editing ? view.values[field] : undefined) ?? user[field] ?? '';

  return (
    <div className="vt-stack">
      <form
        className="vt-card"
        noValidate
        onSubmit={(e) =>
          view.submit(formValues(e, ['email', 'username', 'firstName', 'lastName', 'oldPassword']))
        }
      >
        <header className="vt-card__header">
          <h2>Account</h2>
          {editing ? (
            <EditActions view={view} save="Save" />
          ) : (
            <Button type="button" variant="secondary" disabled={!view.canEdit} onClick={view.edit}>
              Edit
            </Button>
          )}
        </header>
        <fieldset disabled={!editing || view.busy} className="vt-grid-2">
          <TextInput
            key={`email-${editing}`}
            label="Email"
            name="email"
            type="email"
            defaultValue={shownValue('email')}
            error={shown.email}
            hint={
              user.pendingEmail
                ? `Waiting for ${user.pendingEmail} to be confirmed: open the link we sent to it.`
                : undefined
            }
          />
          <TextInput
            key={`username-${editing}`}
            label="Username"
            name="username"
            defaultValue={shownValue('username')}
            error={shown.username}
          />
          <TextInput
            key={`first-${editing}`}
            label="First name"
            name="firstName"
            defaultValue={shownValue('firstName')}
            error={shown.firstName}
          />
          <TextInput
            key={`last-${editing}`}
            label="Last name"
            name="lastName"
            defaultValue={shownValue('lastName')}
            error={shown.lastName}
          />
          {editing && (
            <TextInput
              label="Current password"
              name="oldPassword"
              type="password"
              autoComplete="current-password"
              hint="Needed to change your email. We send a confirmation link to the new address."
              error={shown.oldPassword}
            />
          )}
        </fieldset>
        {view.required && (
          <p className="vt-form-error" role="alert">
            {view.required}
          </p>
        )}
        {view.error && (
          <p className="vt-form-error" role="alert">
            {view.error}
          </p>
        )}
      </form>

      {kycRow}

      <section className="vt-card">
        <h2>Delete account</h2>
        <p className="vt-muted">
          To delete your account, write to{' '}
          <a href={`mailto:${SUPPORT_EMAIL}?subject=Delete%20my%20account`}>{SUPPORT_EMAIL}</a> from the email
          address of your account.
        </p>
      </section>
    </div>
  );
}
