import { type ReactNode, useId } from 'react';
import './balance.css';

/**
 * The frame every payment rail's panel shares: a region named by its title, the item and price,
 * a form whose submit is the rail's main action, the rail's own content, its error (an alert) and
 * status line, an optional receipt line, and the action buttons. It shows what it is given.
 */
export function RailPanel(props: {
  title: string;
  itemTitle: string;
  price: string;
  busy: boolean;
  error: string | null;
  status: string | null;
  receipt?: string;
  onSubmit: () => void;
  actions: ReactNode;
  children?: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className="vt-balance-panel" aria-labelledby={titleId} aria-busy={props.busy || undefined}>
      <header className="vt-balance-panel__header">
        <h2 id={titleId}>{props.title}</h2>
        <p className="vt-muted">
          {props.itemTitle} · {props.price}
        </p>
      </header>
      <form
        className="vt-balance-panel__form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        {props.children}
        {props.error && (
          <p className="vt-form-error" role="alert">
            {props.error}
          </p>
        )}
        {props.status && (
          <p className="vt-muted" aria-live="polite">
            {props.status}
          </p>
        )}
        {props.receipt && <p className="vt-muted">{props.receipt}</p>}
        <div className="vt-actions">{props.actions}</div>
      </form>
    </section>
  );
}
