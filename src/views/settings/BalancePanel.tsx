import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type CryptoTopupEvent,
  connectCryptoTopup,
  type cryptoTopupMachine,
} from '../../../machines/cryptoTopup';
import { useApp } from '../AppContext';
import { Button, TextInput } from '../components';
import './balance.css';

/**
 * Settings → Wallet: adding funds to the FUSD balance with crypto. `returnedChargeId` is the
 * `?topup=` the provider sends the buyer back with; each charge gets its own actor.
 */
export function TopupPanel({
  machine,
  returnedChargeId,
}: {
  machine: typeof cryptoTopupMachine;
  returnedChargeId: string | null;
}) {
  return <TopupActor key={returnedChargeId ?? ''} machine={machine} returnedChargeId={returnedChargeId} />;
}

function TopupActor({
  machine,
  returnedChargeId,
}: {
  machine: typeof cryptoTopupMachine;
  returnedChargeId: string | null;
}) {
  const { inspect } = useApp();
  const actor = useActorRef(machine, { input: { returnedChargeId }, inspect });
  return <TopupPanelView actor={actor} />;
}

/**
 * The amount in dollars and Continue, which opens the provider's hosted payment page; back from it,
 * the top-up's outcome. Everything it shows comes from connectCryptoTopup.
 */
export function TopupPanelView({ actor }: { actor: ActorRefFrom<typeof cryptoTopupMachine> }) {
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
