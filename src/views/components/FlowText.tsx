/**
 * The two lines a wallet-signed flow's dialog shows under its panel: the error of the last step
 * (an alert), and what the flow is doing now (read out politely). Each renders nothing without text.
 */
export function ErrorText({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="vt-alert vt-alert--error" role="alert">
      {error}
    </p>
  );
}

export function Status({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="vt-muted" aria-live="polite">
      {text}
    </p>
  );
}

/** A flow dialog's props: the actor of its machine. */
export interface PanelProps<A> {
  actor: A;
}
