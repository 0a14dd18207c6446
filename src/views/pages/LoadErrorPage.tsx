import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { Button } from '../components/Button';

/**
 * A page whose data could not be loaded (the API or the network failed, or the signed-in user's
 * profile never arrived): says so and offers to load it again, instead of a blank or endless page.
 */
export function LoadErrorPage(_: ErrorComponentProps) {
  const router = useRouter();
  return (
    <section className="vt-page vt-centered" data-testid="load-error">
      <h1 className="vt-page__title">This page could not be loaded</h1>
      <p className="vt-muted">Check your connection, then try again.</p>
      <div className="vt-actions vt-actions--center">
        <Button onClick={() => void router.invalidate()}>Try again</Button>
      </div>
    </section>
  );
}
