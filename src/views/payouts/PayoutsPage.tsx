import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import { connectPayout, type PayoutEvent, type payoutMachine } from '../../../machines/payout';
import { useApp } from '../AppContext';
import { AlertModal, Button, ConfirmModal, Modal, Spinner, TextInput } from '../components';
import { SalesChart } from '../dashboard/SalesChart';
import './table.css';
import './payouts.css';

const route = getRouteApi('/_authenticated/payouts');

/** The payouts page: the machine comes with the route, one actor per visit. */
export function PayoutsPage() {
  const { machine, salesChart, storefront } = route.useLoaderData();
  const { inspect } = useApp();
  const actor = useActorRef(machine, { inspect });
  return (
    <PayoutsView
      actor={actor}
      chart={storefront && <SalesChart machine={salesChart} storefrontId={storefront.id} kind="funds" />}
    />
  );
}

/**
 * The creator's payout requests with their state, the available funds and "Request payout" (at
 * least $10 available and no request open). A request in state created can be cancelled.
 */
export function PayoutsView({
  actor,
  chart,
}: {
  actor: ActorRefFrom<typeof payoutMachine>;
  /** The available-funds chart above the requests. */
  chart?: ReactNode;
}) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectPayout(snapshot, (event: PayoutEvent) => actor.send(event));
  const formId = useId();

  return (
    <section
      className="vt-page vt-payouts"
      aria-labelledby="payouts-title"
      aria-busy={view.busy || undefined}
    >
      <h1 id="payouts-title" className="vt-page__title">
        Payouts
      </h1>
      {view.panel === 'loadFailed' ? (
        <div className="vt-empty" role="alert">
          <h2>Your payouts could not be loaded</h2>
          <p className="vt-muted">{view.loadError}</p>
          <Button {...view.getRetryButtonProps()}>Try again</Button>
        </div>
      ) : view.panel === 'loading' ? (
        <div className="vt-payouts__loading">
          <Spinner label="Loading payouts" />
        </div>
      ) : (
        <>
          <div className="vt-card vt-payouts__funds">
            <div>
              <h2 className="vt-payouts__funds-label">Available funds</h2>
              <p className="vt-payouts__funds-amount" data-testid="available">
                {view.available}
              </p>
              <p className="vt-muted vt-payouts__note" id={`${formId}-why`}>
                {view.note}
              </p>
            </div>
            <Button {...view.getRequestButtonProps()} aria-describedby={`${formId}-why`}>
              Request payout
            </Button>
          </div>
          {chart}
          {view.rows.length === 0 ? (
            <div className="vt-empty">
              <h2>No payout requests yet</h2>
              <p className="vt-muted">
                Your storefront’s sales earn funds; see them on the <Link to="/dashboard/sales">Sales</Link>{' '}
                page.
              </p>
            </div>
          ) : (
            <div className="vt-payouts__table-wrap">
              <table className="vt-table">
                <caption className="vt-visually-hidden">Payout requests, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Requested</th>
                    <th scope="col" className="vt-table__num">
                      Amount
                    </th>
                    <th scope="col">Status</th>
                    <th scope="col">
                      <span className="vt-visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {view.rows.map((r) => (
                    <tr key={r.id} data-testid="payout-row">
                      <td>{r.requested}</td>
                      <td className="vt-table__num">{r.amount}</td>
                      <td>
                        <span className={`vt-badge vt-badge--payout-${r.state}`}>{r.stateLabel}</span>
                      </td>
                      <td className="vt-table__actions">
                        {r.cancel && (
                          <Button variant="secondary" size="sm" {...view.getCancelRequestButtonProps(r)}>
                            Cancel
                          </Button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {view.more && <p className="vt-muted">{view.more}</p>}
            </div>
          )}
        </>
      )}

      <Modal
        {...view.getFormDialogProps()}
        title="Request payout"
        description={view.form?.description}
        footer={
          <>
            <Button variant="secondary" {...view.getFormCloseButtonProps()}>
              Cancel
            </Button>
            <Button {...view.getSubmitButtonProps()} form={`${formId}-form`} loading={view.form?.submitting}>
              Send request
            </Button>
          </>
        }
      >
        <form id={`${formId}-form`} {...view.getFormProps()}>
          <TextInput
            key={view.form?.amount}
            name="amount"
            label="Amount (USD)"
            inputMode="decimal"
            startAdornment="$"
            defaultValue={view.form?.amount}
            readOnly={view.form?.submitting}
            error={view.form?.error ?? undefined}
          />
        </form>
      </Modal>

      <ConfirmModal
        {...view.getConfirmCancelProps()}
        title="Cancel this payout request?"
        message={view.confirmCancel?.message ?? ''}
        confirmLabel="Cancel request"
        cancelLabel="Keep request"
        danger
      />

      <AlertModal
        {...view.getFailureProps()}
        title={view.failure?.title ?? ''}
        message={view.failure?.message ?? ''}
      />
    </section>
  );
}
