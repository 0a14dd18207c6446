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
        onSubmit={view.continueBilling}
        actions={
          <>
            <Button variant="secondary" onClick={view.back} disabled={!view.canBack}>
              Back
            </Button>
            <Button type="submit" loading={view.busy} disabled={!view.canContinue}>
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
      onSubmit={view.pay}
      actions={
        <>
          <Button variant="secondary" onClick={view.back} disabled={!view.canBack}>
            Back
          </Button>
          <Button type="submit" loading={view.busy} disabled={!view.canPay}>
            {view.payLabel}
          </Button>
        </>
      }
    >
      <PurchaseTerms
        className="vt-balance-panel__terms"
        checked={view.acknowledged}
        disabled={view.busy}
        onChange={view.acknowledge}
      />
    </RailPanel>
  );
}
