import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { SUPPORT_EMAIL } from '#domain/constants';
import { errorMessage, errorTexts } from '#domain/errors';
import type { User } from '#domain/user';
import type { settingsFormMachine } from '../../../machines/settingsForm';
import { useApp } from '../AppContext';
import { Button, TextInput } from '../components';
import { EditActions } from './EditActions';
import { formValues, visibleErrors } from './form';
import { KycRow } from './KycRow';

const settingsRoute = getRouteApi('/settings');

/** Settings → Account: edit/save toggle for email, names and username; KYC row; delete-account note. */
export function AccountSettings() {
  const { session, inspect } = useApp();
  const machine = settingsRoute.useLoaderData({ select: (d) => d.settingsForm });
  const user = useSelector(session, (s) => s.context.user);
  const actor = useActorRef(machine, { input: { kind: 'account' }, inspect });
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
  const editing = useSelector(actor, (s) => !s.matches('viewing'));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { values, errors, error } = useSelector(actor, (s) => s.context);
  const shown = visibleErrors(values, errors);

  return (
    <div className="vt-stack">
      <form
        className="vt-card"
        noValidate
        onSubmit={(e) =>
          actor.send({
            type: 'settings.submit',
            values: formValues(e, ['email', 'username', 'firstName', 'lastName', 'oldPassword']),
          })
        }
      >
        <header className="vt-card__header">
          <h2>Account</h2>
          {editing ? (
            <EditActions actor={actor} busy={busy} save="Save" />
          ) : (
            <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'settings.edit' })}>
              Edit
            </Button>
          )}
        </header>
        <fieldset disabled={!editing || busy} className="vt-grid-2">
          <TextInput
            key={`email-${editing}`}
            label="Email"
            name="email"
            type="email"
            defaultValue={user.email ?? ''}
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
            defaultValue={user.username}
            error={shown.username}
          />
          <TextInput
            key={`first-${editing}`}
            label="First name"
            name="firstName"
            defaultValue={user.firstName}
            error={shown.firstName}
          />
          <TextInput
            key={`last-${editing}`}
            label="Last name"
            name="lastName"
            defaultValue={user.lastName}
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
        {shown._required && (
          <p className="vt-form-error" role="alert">
            {errorTexts['errors.required']}
          </p>
        )}
        {error && (
          <p className="vt-form-error" role="alert">
            {errorMessage(error)}
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
