import { Link } from '@tanstack/react-router';

/** Not Found: an unknown path, item or storefront, or an item the viewer cannot show. */
export function NotFoundPage() {
  return (
    <section className="vt-page vt-centered" data-testid="not-found">
      <p className="vt-eyebrow">404</p>
      <h1 className="vt-page__title">We couldn't find what you're looking for</h1>
      <p className="vt-muted">The page may have moved, or the link may be mistyped.</p>
      <div className="vt-actions vt-actions--center">
        <Link className="vt-button vt-button--primary" to="/">
          Go home
        </Link>
        <Link className="vt-button vt-button--secondary" to="/marketplace">
          Browse the marketplace
        </Link>
      </div>
    </section>
  );
}
