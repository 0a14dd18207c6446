import { Link } from '@tanstack/react-router';
import { routePaths } from '#domain/routes';

/** SPEC §2: /drops and /profile/avatars show "coming soon". */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <section className="vt-page vt-centered">
      <p className="vt-eyebrow">{title}</p>
      <h1 className="vt-page__title">Coming soon</h1>
      <p className="vt-muted">We're putting the finishing touches on this. Check back shortly.</p>
      <div className="vt-actions vt-actions--center">
        <Link className="vt-button vt-button--primary" to={routePaths.Marketplace}>
          Explore the marketplace
        </Link>
      </div>
    </section>
  );
}
