import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, useEffect, useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type CryptoTopupEvent,
  connectCryptoTopup,
  type cryptoTopupMachine,
} from '../../../machines/cryptoTopup';
import { connectFusdBalance, type fusdBalanceMachine } from '../../../machines/fusdBalance';
import { useApp } from '../AppContext';
import { Button, TextInput } from '../components';
import './balance.css';

interface TopupPanelProps {
  machine: typeof cryptoTopupMachine;
  balanceMachine: typeof fusdBalanceMachine;
  /** The linked wallet, whose balance shows. */
  address: string;
  returnedChargeId: string | null;
}

/**
 * Settings → Wallet: the FUSD balance and adding funds to it with crypto. `returnedChargeId` is the
 * `?topup=` the provider sends the buyer back with; each charge gets its own actors. The balance is
 * read again once a top-up's FUSD has arrived.
 */
export function TopupPanel(props: TopupPanelProps) {
  return <TopupActor key={`${props.address}:${props.returnedChargeId ?? ''}`} {...props} />;
}

function TopupActor({ machine, balanceMachine, address, returnedChargeId }: TopupPanelProps) {
  const { inspect } = useApp();
  const actor = useActorRef(machine, { input: { returnedChargeId }, inspect });
  const balance = useActorRef(balanceMachine, { input: { address }, inspect });
  const added = useSelector(actor, (s) => connectCryptoTopup(s, actor.send).panel === 'added');
  useEffect(() => {
    if (added) balance.send({ type: 'balance.refresh' });
  }, [added, balance]);
  return <TopupPanelView actor={actor} balance={<FusdBalanceLine actor={balance} />} />;
}

/** The wallet's FUSD balance with Refresh; everything it shows comes from connectFusdBalance. */
export function FusdBalanceLine({ actor }: { actor: ActorRefFrom<typeof fusdBalanceMachine> }) {
  const view = connectFusdBalance(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  return (
    <div className="vt-topup__balance" aria-busy={view.busy || undefined}>
      <dl className="vt-dl">
        <dt>{view.label}</dt>
        <dd>{view.value}</dd>
      </dl>
      <Button variant="secondary" size="sm" onClick={view.refresh} disabled={!view.canRefresh}>
        {view.refreshLabel}
      </Button>
      {view.error && (
        <p className="vt-form-error" role="alert">
          {view.error}
        </p>
      )}
    </div>
  );
}

/**
 * The amount in dollars and Continue, which opens the provider's hosted payment page; back from it,
 * the top-up's outcome. Everything it shows comes from connectCryptoTopup.
 */
export function TopupPanelView({
  actor,
  balance,
}: {
  actor: ActorRefFrom<typeof cryptoTopupMachine>;
  /** The wallet's balance, shown under the title. */
  balance?: ReactNode;
}) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectCryptoTopup(snapshot, (event: CryptoTopupEvent) => actor.send(event));
  const titleId = useId();

  return (
    <section
      className="vt-card vt-topup"
      aria-labelledby={titleId}
      aria-busy={view.busy || undefined}
      data-panel={view.panel}
    >
      <header className="vt-card__header">
        <h2 id={titleId}>{view.title}</h2>
      </header>
      {balance}

      {view.panel === 'form' && (
        <form
          className="vt-topup__form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            view.submit();
          }}
        >
          <TextInput
            label={view.amountLabel}
            name="topupAmount"
            inputMode="decimal"
            autoComplete="off"
            startAdornment="$"
            value={view.amount}
            onChange={(e) => view.setAmount(e.target.value)}
            disabled={!view.canEdit}
            hint={view.hint}
            error={view.amountError}
          />
          {view.error && (
            <p className="vt-form-error" role="alert">
              {view.error}
            </p>
          )}
          <div className="vt-actions vt-topup__actions">
            <Button type="submit" loading={view.busy} disabled={!view.canSubmit}>
              {view.submitLabel}
            </Button>
          </div>
        </form>
      )}

      <p className="vt-topup__status" role="status">
        {view.status ?? view.message}
      </p>

      {view.canAgain && (
        <div className="vt-actions vt-topup__actions">
          <Button variant="secondary" onClick={view.again}>
            {view.againLabel}
          </Button>
        </div>
      )}
    </section>
  );
}
