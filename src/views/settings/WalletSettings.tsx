import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { User } from '#domain/user';
import type { collectionCheckMachine } from '../../../machines/collectionCheck';
import type { walletLinkMachine } from '../../../machines/walletLink';
import { useApp } from '../AppContext';
import { Button } from '../components';
import { TopupPanel } from './BalancePanel';

const settingsRoute = getRouteApi('/settings');

const walletRoute = getRouteApi('/settings/wallet');

/**
 * Settings → Wallet: the account's email and linked Flow address (relink proves a wallet and links
 * it), the collection, and adding funds to the FUSD balance with crypto.
 */
export function WalletSettings() {
  const { session, inspect } = useApp();
  const { walletLink, walletAvailable, cryptoTopup } = settingsRoute.useLoaderData();
  const { topup } = walletRoute.useSearch();
  const user = useSelector(session, (s) => s.context.user);
  const actor = useActorRef(walletLink, { inspect });
  if (!user) return null;
  const address = user.wallet.walletAddress;
  return (
    <div className="vt-stack">
      <WalletSettingsView actor={actor} user={user} walletAvailable={walletAvailable} />
      {walletAvailable && address && <CollectionPanel key={address} address={address} />}
      {walletAvailable && address && <TopupPanel machine={cryptoTopup} returnedChargeId={topup ?? null} />}
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
  const step = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <section className="vt-card" data-step={step} aria-busy={busy}>
      <header className="vt-card__header">
        <h2>Collection</h2>
        {step === 'required' && (
          <Button variant="primary" onClick={() => actor.send({ type: 'collection.setup' })}>
            Set up collection
          </Button>
        )}
        {step === 'settingUp' && (
          <Button variant="primary" loading>
            Set up collection
          </Button>
        )}
        {step === 'checkFailed' && (
          <Button variant="secondary" onClick={() => actor.send({ type: 'collection.retry' })}>
            Try again
          </Button>
        )}
      </header>
      <p className="vt-muted">
        {step === 'ready'
          ? 'Your collection is ready: items you buy or claim are minted to this wallet.'
          : step === 'checking'
            ? 'Checking your collection…'
            : step === 'settingUp'
              ? 'Approve the setup in your wallet; it takes a few seconds on chain.'
              : step === 'checkFailed'
                ? 'We could not check your collection.'
                : 'Collection required: your wallet needs a Vitrine collection and an FUSD balance before it can hold items.'}
      </p>
      {error && (
        <p className="vt-form-error" role="alert">
          {errorMessage(error)}
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
