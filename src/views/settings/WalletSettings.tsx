import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { walletLinkMachine } from '../../../machines/walletLink';
import { errorMessage } from '../../domain/errors';
import type { User } from '../../domain/user';
import { useApp } from '../AppContext';
import { Button } from '../components';

const settingsRoute = getRouteApi('/settings');

/** Settings → Wallet: the account's email and linked Flow address; relink proves a wallet and links it. */
export function WalletSettings() {
  const { session, inspect } = useApp();
  const { walletLink, walletAvailable } = settingsRoute.useLoaderData();
  const user = useSelector(session, (s) => s.context.user);
  const actor = useActorRef(walletLink, { inspect });
  if (!user) return null;
  return <WalletSettingsView actor={actor} user={user} walletAvailable={walletAvailable} />;
}

export function WalletSettingsView({
  actor,
  user,
  walletAvailable,
}: {
  actor: ActorRefFrom<typeof walletLinkMachine>;
  user: User;
  walletAvailable: boolean;
}) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <section className="vt-card">
      <header className="vt-card__header">
        <h2>Wallet</h2>
        {walletAvailable && (
          <Button variant="secondary" loading={busy} onClick={() => actor.send({ type: 'wallet.relink' })}>
            {user.wallet.walletAddress ? 'Relink wallet' : 'Link a wallet'}
          </Button>
        )}
      </header>
      <dl className="vt-dl">
        <dt>Email</dt>
        <dd>{user.email}</dd>
        <dt>Flow address</dt>
        <dd className="vt-mono">{user.wallet.walletAddress ?? 'No wallet linked yet'}</dd>
      </dl>
      {error && (
        <p className="vt-form-error" role="alert">
          {errorMessage(error)}
        </p>
      )}
    </section>
  );
}
