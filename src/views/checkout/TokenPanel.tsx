import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { TokenChargeEvent, tokenChargeMachine } from '../../../machines/tokenCharge';
import { connectTokenCharge } from '../../../machines/tokenChargeView';
import { Button } from '../components';
import { PurchaseTerms } from './PurchaseTerms';
import { RailPanel } from './RailPanel';

/**
 * The "utility-token payment" panel of the checkout: the item, its price and the estimate in NFM;
 * the purchase agreement and terms, and Pay, which the browser wallet signs and sends. Switch
 * network, Try again / Check again, Resume payment and Cancel payment (Cancel that payment, for
 * another payment of the address that waits) show while the machine takes them; once the
 * transfer is sent the panel says the payment can no longer be canceled. Everything it shows comes
 * from connectTokenCharge; its outcome is the machine's output.
 */
export function TokenPanel({ actor }: { actor: ActorRefFrom<typeof tokenChargeMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectTokenCharge(snapshot, (event: TokenChargeEvent) => actor.send(event));
  if (view.panel === 'done') return null;
  return (
    <RailPanel
      {...view}
      onSubmit={view.submit}
      actions={
        <>
          {view.canBack && (
            <Button variant="secondary" {...view.getBackButtonProps()}>
              Back
            </Button>
          )}
          {view.canCancel && (
            <Button variant="secondary" {...view.getCancelButtonProps()}>
              {view.cancelLabel}
            </Button>
          )}
          {view.canResume && <Button {...view.getResumeButtonProps()}>Resume payment</Button>}
          {view.canSwitch && <Button {...view.getSwitchButtonProps()}>Switch network</Button>}
          {view.canRetry && <Button {...view.getRetryButtonProps()}>{view.retryLabel}</Button>}
          {view.panel === 'review' && (
            <Button {...view.getPayButtonProps()} loading={view.busy}>
              {view.payLabel}
            </Button>
          )}
        </>
      }
    >
      {view.estimate && (
        <dl className="vt-summary">
          <dt>Price</dt>
          <dd>{view.price}</dd>
          <dt>In NFM</dt>
          <dd>{view.estimate}</dd>
        </dl>
      )}
      {view.panel === 'review' && (
        <PurchaseTerms className="vt-balance-panel__terms" {...view.getTermsProps()} />
      )}
      {view.blocker && <p>{view.blocker}</p>}
      {view.nonCancelable && (
        <p className="vt-muted" role="note">
          {view.nonCancelable}
        </p>
      )}
    </RailPanel>
  );
}
