import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { WalletPaymentEvent, walletPaymentMachine } from '../../../machines/walletPayment';
import { connectWalletPayment } from '../../../machines/walletPaymentView';
import { Button } from '../components';
import { BillingForm } from './BillingForm';
import { PurchaseTerms } from './PurchaseTerms';
import { RailPanel } from './RailPanel';

/**
 * The "mobile wallet pay" panel of the checkout (Apple Pay, Google Pay): the item and price, the
 * purchase agreement and terms, and Pay, which opens the wallet's payment sheet (the sheet actor
 * owns it; the click starts it, as Apple requires). When Google Pay shared too little of the
 * billing address, the "Google Pay billing" panel asks for the rest, then pays. Everything it shows
 * comes from connectWalletPayment; its outcome is the machine's output.
 */
export function WalletPanel({ actor }: { actor: ActorRefFrom<typeof walletPaymentMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectWalletPayment(snapshot, (event: WalletPaymentEvent) => actor.send(event));
  if (view.panel === 'done') return null;
  if (view.panel === 'billing')
    return (
      <RailPanel
        {...view}
        onSubmit={view.submit}
        actions={
          <>
            <Button variant="secondary" {...view.getBackButtonProps()}>
              Back
            </Button>
            <Button {...view.getPayButtonProps()} loading={view.busy}>
              {view.payLabel}
            </Button>
          </>
        }
      >
        <p className="vt-muted">{view.billingText}</p>
        <BillingForm
          form={view.billing}
          onChange={view.changeBilling}
          disabled={view.busy}
          withCard={false}
          withPhone={false}
        />
      </RailPanel>
    );
  return (
    <RailPanel
      {...view}
      onSubmit={view.submit}
      actions={
        <>
          <Button variant="secondary" {...view.getBackButtonProps()}>
            Back
          </Button>
          <Button {...view.getPayButtonProps()} loading={view.busy}>
            {view.payLabel}
          </Button>
        </>
      }
    >
      <PurchaseTerms className="vt-balance-panel__terms" {...view.getTermsProps()} />
    </RailPanel>
  );
}
