import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { User } from '#domain/user';
import {
  type CollectionCheckEvent,
  type collectionCheckMachine,
  connectCollectionCheck,
} from '../../../machines/collectionCheck';
import {
  connectWalletLink,
  type WalletLinkEvent,
  type walletLinkMachine,
} from '../../../machines/walletLink';
import { useApp } from '../AppContext';
import { Button } from '../components';
import { TopupPanel } from './BalancePanel';

const settingsRoute = getRouteApi('/_authenticated/settings');

const walletRoute = getRouteApi('/_authenticated/settings/wallet');

/**
 * Settings → Wallet: the account's email and linked Flow address (relink proves a wallet and links
 * it), the collection, and the FUSD balance with adding funds to it with crypto.
 */
export function WalletSettings() {
  const { session, inspect } = useApp();
  const { walletLink, walletAvailable, cryptoTopup, fusdBalance } = settingsRoute.useLoaderData();
  const { topup } = walletRoute.useSearch();
  const user = useSelector(session, (s) => s.context.user);
  const actor = useActorRef(walletLink, { inspect });
  if (!user) return null;
  const address = user.wallet.walletAddress;
  return (
    <div className="vt-stack">
      <WalletSettingsView actor={actor} user={user} walletAvailable={walletAvailable} />
      {walletAvailable && address && <CollectionPanel key={address} address={address} />}
      {walletAvailable && address && (
        <TopupPanel
          machine={cryptoTopup}
          balanceMachine={fusdBalance}
          address={address}
          returnedChargeId={topup ?? null}
        />
      )}
    </div>
  );
}

function CollectionPanel({ address }: { address: string }) {
  const { inspect } = useApp();
  const machine = settingsRoute.useLoaderData({ select: (d) => d.collectionCheck });
  const actor = useActorRef(machine, { input: { address }, inspect });
  return <CollectionPanelView actor={actor} />;
}

/** "Collection required" → set up in the wallet → ready. */
export function CollectionPanelView({ actor }: { actor: ActorRefFrom<typeof collectionCheckMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectCollectionCheck(snapshot, (event: CollectionCheckEvent) => actor.send(event));
  return (
    <section className="vt-card" data-step={view.step} aria-busy={view.busy}>
      <header className="vt-card__header">
        <h2>Collection</h2>
        {view.setup && (
          <Button
            variant="primary"
            loading={view.setup.loading}
            disabled={!view.setup.enabled}
            onClick={view.setUp}
          >
            Set up collection
          </Button>
        )}
        {view.canRetry && (
          <Button variant="secondary" onClick={view.retry}>
            Try again
          </Button>
        )}
      </header>
      <p className="vt-muted">{view.text}</p>
      {view.error && (
        <p className="vt-form-error" role="alert">
          {view.error}
        </p>
      )}
    </section>
  );
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
  const snapshot = useSelector(actor, (s) => s);
  const view = connectWalletLink(snapshot, (event: WalletLinkEvent) => actor.send(event));
  return (
    <section className="vt-card">
      <header className="vt-card__header">
        <h2>Wallet</h2>
        {walletAvailable && (
          <Button variant="secondary" loading={view.busy} disabled={!view.canRelink} onClick={view.relink}>
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
      {view.error && (
        <p className="vt-form-error" role="alert">
          {view.error}
        </p>
      )}
    </section>
  );
}
