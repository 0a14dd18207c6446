import { Link } from '@tanstack/react-router';

/** A page that is not open yet (/drops, /profile/avatars): says so and offers the marketplace. */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <section className="vt-page vt-centered">
      <p className="vt-eyebrow">{title}</p>
      <h1 className="vt-page__title">Coming soon</h1>
      <p className="vt-muted">We're putting the finishing touches on this. Check back shortly.</p>
      <div className="vt-actions vt-actions--center">
        <Link className="vt-button vt-button--primary" to="/marketplace">
          Explore the marketplace
        </Link>
      </div>
    </section>
  );
}
