import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { OnrampPaymentEvent, onrampPaymentMachine } from '../../../machines/onrampPayment';
import { connectOnrampPayment } from '../../../machines/onrampPaymentView';
import { Button } from '../components';
import { PurchaseTerms } from './PurchaseTerms';
import { RailPanel } from './RailPanel';

/**
 * The on-ramp rail of the checkout: the item and price, the purchase agreement and terms, and Pay,
 * which opens the provider's payment window over the page (the widget actor owns it). While it is
 * open or a payment is being confirmed, the panel says so. A payment the buyer started and did not
 * finish is offered first: Resume opens the payment window with it again, Cancel gives it up.
 * Everything it shows comes from connectOnrampPayment; its outcome is the machine's output.
 */
export function OnrampPanel({ actor }: { actor: ActorRefFrom<typeof onrampPaymentMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectOnrampPayment(snapshot, (event: OnrampPaymentEvent) => actor.send(event));
  if (view.panel === 'done') return null;
  const open = view.panel === 'open';
  return (
    <RailPanel
      {...view}
      onSubmit={view.submit}
      actions={
        <>
          <Button variant="secondary" {...view.getBackButtonProps()}>
            Back
          </Button>
          {open && (
            <>
              <Button variant="secondary" {...view.getCancelButtonProps()} loading={view.busy}>
                Cancel payment
              </Button>
              <Button {...view.getResumeButtonProps()}>Resume payment</Button>
            </>
          )}
          {view.showsPay && (
            <Button {...view.getPayButtonProps()} loading={view.busy}>
              {view.payLabel}
            </Button>
          )}
        </>
      }
    >
      {view.panel === 'review' && (
        <PurchaseTerms className="vt-balance-panel__terms" {...view.getTermsProps()} />
      )}
    </RailPanel>
  );
}
