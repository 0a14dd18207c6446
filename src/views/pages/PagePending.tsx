import { Spinner } from '../components/Spinner';

/** A page whose data is still on its way (after a moment): the shell stays, with a spinner in place. */
export function PagePending() {
  return (
    <section className="vt-page vt-centered" aria-busy="true">
      <Spinner size="lg" label="Loading" />
    </section>
  );
}
