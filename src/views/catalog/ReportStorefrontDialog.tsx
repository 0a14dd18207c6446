import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import { type ReportReason, reportReasons } from '#domain/enums';
import { errorMessage } from '#domain/errors';
import { REPORT_DESCRIPTION_MAX } from '#domain/schemas/catalog';
import type { storefrontReportMachine } from '../../../machines/storefrontReport';
import { Button, Modal } from '../components';
import { cx } from '../components/cx';
import './report.css';

export interface ReportStorefrontDialogProps {
  actor: ActorRefFrom<typeof storefrontReportMachine>;
  storefrontName: string;
  /** Called when the person closes the dialog: true after a sent report, false when canceled. */
  onDone: (reported: boolean) => void;
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
export function ReportStorefrontDialog({ actor, storefrontName, onDone }: ReportStorefrontDialogProps) {
  const state = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const ctx = useSelector(actor, (s) => s.context);
  const id = useId();
  const close = () => (state === 'submitted' ? onDone(true) : actor.send({ type: 'report.close' }));
  if (state === 'closed') {
    queueMicrotask(() => onDone(false));
    return null;
  }
  const reasonError = ctx.error?.field === 'reason' ? errorMessage(ctx.error) : undefined;
  const descriptionError = ctx.error?.field === 'description' ? errorMessage(ctx.error) : undefined;
  const otherError = ctx.error && !reasonError && !descriptionError ? errorMessage(ctx.error) : undefined;
  const length = ctx.description.length;
  const descriptionId = `${id}-description`;
  const counterId = `${id}-counter`;
  const descriptionErrorId = `${id}-description-error`;
  return (
    <Modal
      open
      onClose={busy ? () => {} : close}
      showCloseButton={!busy}
      title={state === 'submitted' ? 'Thanks for your report' : `Report ${storefrontName}`}
      footer={
        state === 'submitted' ? (
          <Button onClick={() => onDone(true)}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" form={`${id}-form`} loading={busy}>
              Send report
            </Button>
          </>
        )
      }
    >
      {state === 'submitted' ? (
        <p>Our team will review {storefrontName} and take action if it breaks our rules.</p>
      ) : (
        <form
          id={`${id}-form`}
          className="vt-stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'report.submit' });
          }}
        >
          <fieldset
            className="vt-report__reasons"
            disabled={busy}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? `${id}-reason-error` : undefined}
          >
            <legend className="vt-field__label">Reason</legend>
            {reportReasons.map((reason) => (
              <label key={reason} className="vt-report__reason">
                <input
                  type="radio"
                  name={`${id}-reason`}
                  value={reason}
                  checked={ctx.reason === reason}
                  onChange={() => actor.send({ type: 'report.reason.change', value: reason })}
                />
                <span>{reasonLabels[reason]}</span>
              </label>
            ))}
            {reasonError && (
              <p id={`${id}-reason-error`} className="vt-field__error" role="alert">
                {reasonError}
              </p>
            )}
          </fieldset>
          <div className="vt-field">
            <label htmlFor={descriptionId} className="vt-field__label">
              Description (optional)
            </label>
            <textarea
              id={descriptionId}
              className={cx('vt-report__textarea', descriptionError && 'vt-report__textarea--invalid')}
              rows={4}
              value={ctx.description}
              readOnly={busy}
              aria-invalid={descriptionError ? true : undefined}
              aria-describedby={[counterId, descriptionError ? descriptionErrorId : null]
                .filter(Boolean)
                .join(' ')}
              onChange={(e) => actor.send({ type: 'report.description.change', value: e.target.value })}
            />
            <p
              id={counterId}
              className={cx(
                'vt-field__hint vt-report__counter',
                length > REPORT_DESCRIPTION_MAX && 'vt-report__counter--over',
              )}
              aria-live="polite"
            >
              {length}/{REPORT_DESCRIPTION_MAX}
            </p>
            {descriptionError && (
              <p id={descriptionErrorId} className="vt-field__error" role="alert">
                {descriptionError}
              </p>
            )}
          </div>
          {busy && (
            <p className="vt-muted" aria-live="polite">
              Sending your report…
            </p>
          )}
          {otherError && (
            <p className="vt-alert vt-alert--error" role="alert">
              {otherError}
            </p>
          )}
        </form>
      )}
    </Modal>
  );
}
