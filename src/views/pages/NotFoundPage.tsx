import { Link } from '@tanstack/react-router';
import { routePaths } from '#domain/routes';

/** SPEC §2: used for an unknown path, item, storefront or a viewer failure. */
export function NotFoundPage() {
  return (
    <section className="vt-page vt-centered" data-testid="not-found">
      <p className="vt-eyebrow">404</p>
      <h1 className="vt-page__title">We couldn't find what you're looking for</h1>
      <p className="vt-muted">The page may have moved, or the link may be mistyped.</p>
      <div className="vt-actions vt-actions--center">
        <Link className="vt-button vt-button--primary" to={routePaths.Home}>
          Go home
        </Link>
        <Link className="vt-button vt-button--secondary" to={routePaths.Marketplace}>
          Browse the marketplace
        </Link>
      </div>
    </section>
  );
}
