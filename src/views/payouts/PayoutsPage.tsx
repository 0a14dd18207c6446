import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import { toDate } from '#domain/dates';
import { formatUsd } from '#domain/money';
import { payoutFailureText, payoutStateLabels } from '#domain/sales';
import { hasOpenRequest, type payoutMachine } from '../../../machines/payout';
import { useApp } from '../AppContext';
import { AlertModal, Button, ConfirmModal, Modal, Spinner, TextInput } from '../components';
import { SalesChart } from '../dashboard/SalesChart';
import './table.css';
import './payouts.css';

const route = getRouteApi('/payouts');

/** The payouts page (SPEC §2): the machine comes with the route, one actor per visit. */
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

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
export const formatRequestDate = (d: Date | string) => dateFormat.format(toDate(d));

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
  const state = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { requests, total, available, minimum, amount, cancelId, error, failure } = useSelector(
    actor,
    (s) => s.context,
  );
  const formId = useId();
  const firstLoad = state === 'loading' && requests.length === 0 && total === 0;
  const open = hasOpenRequest(requests);
  const belowMinimum = available < minimum;
  const cancelling = requests.find((r) => r.id === cancelId);
  const requestingForm = state === 'requesting' || state === 'submitting';

  return (
    <section className="vt-page vt-payouts" aria-labelledby="payouts-title" aria-busy={busy || undefined}>
      <h1 id="payouts-title" className="vt-page__title">
        Payouts
      </h1>
      {state === 'loadFailed' ? (
        <div className="vt-empty" role="alert">
          <h2>Your payouts could not be loaded</h2>
          <p className="vt-muted">{payoutFailureText(error)}</p>
          <Button onClick={() => actor.send({ type: 'payout.retry' })}>Try again</Button>
        </div>
      ) : firstLoad ? (
        <div className="vt-payouts__loading">
          <Spinner label="Loading payouts" />
        </div>
      ) : (
        <>
          <div className="vt-card vt-payouts__funds">
            <div>
              <h2 className="vt-payouts__funds-label">Available funds</h2>
              <p className="vt-payouts__funds-amount" data-testid="available">
                {formatUsd(available)}
              </p>
              <p className="vt-muted vt-payouts__note" id={`${formId}-why`}>
                {open
                  ? 'You have a payout request in progress. You can request another once it has been processed.'
                  : belowMinimum
                    ? `You can request a payout once you have at least ${formatUsd(minimum)} available.`
                    : `Payouts are paid in USD. The minimum is ${formatUsd(minimum)}.`}
              </p>
            </div>
            <Button
              onClick={() => actor.send({ type: 'payout.request' })}
              disabled={belowMinimum || open || busy}
              aria-describedby={`${formId}-why`}
            >
              Request payout
            </Button>
          </div>
          {chart}
          {requests.length === 0 ? (
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
                  {requests.map((r) => (
                    <tr key={r.id} data-testid="payout-row">
                      <td>{formatRequestDate(r.createdAt)}</td>
                      <td className="vt-table__num">{formatUsd(r.amount)}</td>
                      <td>
                        <span className={`vt-badge vt-badge--payout-${r.state}`}>
                          {payoutStateLabels[r.state]}
                        </span>
                      </td>
                      <td className="vt-table__actions">
                        {r.state === 'created' && (
                          <Button
                            variant="secondary"
                            size="sm"
                            disabled={busy}
                            aria-label={`Cancel the payout request of ${formatUsd(r.amount)}`}
                            onClick={() => actor.send({ type: 'payout.cancel', id: r.id })}
                          >
                            Cancel
                          </Button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {total > requests.length && (
                <p className="vt-muted">
                  The newest {requests.length} of {total} requests.
                </p>
              )}
            </div>
          )}
        </>
      )}

      <Modal
        open={requestingForm}
        onClose={() => actor.send({ type: 'payout.close' })}
        showCloseButton={state !== 'submitting'}
        title="Request payout"
        description={`Available: ${formatUsd(available)}. The minimum payout is ${formatUsd(minimum)}.`}
        footer={
          <>
            <Button
              variant="secondary"
              onClick={() => actor.send({ type: 'payout.close' })}
              disabled={state === 'submitting'}
            >
              Cancel
            </Button>
            <Button type="submit" form={`${formId}-form`} loading={state === 'submitting'}>
              Send request
            </Button>
          </>
        }
      >
        <form
          id={`${formId}-form`}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const value = new FormData(e.currentTarget).get('amount');
            actor.send({ type: 'payout.submit', amount: typeof value === 'string' ? value : '' });
          }}
        >
          <TextInput
            key={amount}
            name="amount"
            label="Amount (USD)"
            inputMode="decimal"
            startAdornment="$"
            defaultValue={amount}
            readOnly={state === 'submitting'}
            error={requestingForm && error ? payoutFailureText(error) : undefined}
          />
        </form>
      </Modal>

      <ConfirmModal
        open={state === 'confirmingCancel' || state === 'cancelling'}
        title="Cancel this payout request?"
        message={
          cancelling
            ? `The request of ${formatUsd(cancelling.amount)} will be cancelled and the amount becomes available again.`
            : 'The request will be cancelled.'
        }
        confirmLabel="Cancel request"
        cancelLabel="Keep request"
        danger
        loading={state === 'cancelling'}
        onConfirm={() => actor.send({ type: 'payout.cancel.confirm' })}
        onCancel={() => actor.send({ type: 'payout.close' })}
      />

      <AlertModal
        open={state === 'failed'}
        title={failure === 'cancel' ? 'The request was not cancelled' : 'The payout was not requested'}
        message={payoutFailureText(error)}
        onClose={() => actor.send({ type: 'payout.dismiss' })}
      />
    </section>
  );
}
