import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import { type ReportReason, reportReasons } from '#domain/enums';
import { connectStorefrontReport, type storefrontReportMachine } from '../../../machines/storefrontReport';
import { Button, Modal } from '../components';
import { cx } from '../components/cx';
import './report.css';

export interface ReportStorefrontDialogProps {
  /** The report flow; how it ended (sent or canceled) is its output, read by the page. */
  actor: ActorRefFrom<typeof storefrontReportMachine>;
  storefrontName: string;
}

const reasonLabels: Record<ReportReason, string> = {
  offensive: 'Offensive',
  illegal: 'Illegal',
  misleading: 'Misleading',
  other: 'Other',
};

/**
 * The report modal of a storefront (signed-in people only; the page asks visitors to sign in): a
 * reason as a radio group, an optional description with a live character counter, then a thank-you.
 */
export function ReportStorefrontDialog({ actor, storefrontName }: ReportStorefrontDialogProps) {
  const view = connectStorefrontReport(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  const id = useId();
  if (view.panel === 'done') return null;
  const descriptionId = `${id}-description`;
  const counterId = `${id}-counter`;
  const descriptionErrorId = `${id}-description-error`;
  return (
    <Modal
      open
      onClose={view.canClose ? view.close : () => {}}
      showCloseButton={view.canClose}
      title={view.panel === 'submitted' ? 'Thanks for your report' : `Report ${storefrontName}`}
      footer={
        view.panel === 'submitted' ? (
          <Button onClick={view.close}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={view.close} disabled={!view.canClose}>
              Cancel
            </Button>
            <Button type="submit" form={`${id}-form`} loading={view.busy}>
              Send report
            </Button>
          </>
        )
      }
    >
      {view.panel === 'submitted' ? (
        <p>Our team will review {storefrontName} and take action if it breaks our rules.</p>
      ) : (
        <form
          id={`${id}-form`}
          className="vt-stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (view.canSubmit) view.submit();
          }}
        >
          <fieldset
            className="vt-report__reasons"
            disabled={view.busy}
            aria-invalid={view.reasonError ? true : undefined}
            aria-describedby={view.reasonError ? `${id}-reason-error` : undefined}
          >
            <legend className="vt-field__label">Reason</legend>
            {reportReasons.map((reason) => (
              <label key={reason} className="vt-report__reason">
                <input
                  type="radio"
                  name={`${id}-reason`}
                  value={reason}
                  checked={view.reason === reason}
                  onChange={() => view.changeReason(reason)}
                />
                <span>{reasonLabels[reason]}</span>
              </label>
            ))}
            {view.reasonError && (
              <p id={`${id}-reason-error`} className="vt-field__error" role="alert">
                {view.reasonError}
              </p>
            )}
          </fieldset>
          <div className="vt-field">
            <label htmlFor={descriptionId} className="vt-field__label">
              Description (optional)
            </label>
            <textarea
              id={descriptionId}
              className={cx('vt-report__textarea', view.descriptionError && 'vt-report__textarea--invalid')}
              rows={4}
              value={view.description}
              readOnly={view.busy}
              aria-invalid={view.descriptionError ? true : undefined}
              aria-describedby={[counterId, view.descriptionError ? descriptionErrorId : null]
                .filter(Boolean)
                .join(' ')}
              onChange={(e) => view.changeDescription(e.target.value)}
            />
            <p
              id={counterId}
              className={cx(
                'vt-field__hint vt-report__counter',
                view.overLimit && 'vt-report__counter--over',
              )}
              aria-live="polite"
            >
              {view.counter}
            </p>
            {view.descriptionError && (
              <p id={descriptionErrorId} className="vt-field__error" role="alert">
                {view.descriptionError}
              </p>
            )}
          </div>
          {view.status && (
            <p className="vt-muted" aria-live="polite">
              {view.status}
            </p>
          )}
          {view.error && (
            <p className="vt-alert vt-alert--error" role="alert">
              {view.error}
            </p>
          )}
        </form>
      )}
    </Modal>
  );
}
