import { Link } from '@tanstack/react-router';
import { routePaths } from '../../domain/routes';

/** Home: the hero. The explainer carousel, create-and-sell steps and FAQ arrive with the catalog. */
export function HomePage() {
  return (
    <section className="vt-hero">
      <div className="vt-hero__text">
        <p className="vt-eyebrow">Digital collectibles on Flow</p>
        <h1>Collect what you love. Sell what you make.</h1>
        <p className="vt-lead">
          Buy drops, packs and editions from independent creators, resell what you own and show it off on your
          profile. Creators open their own storefront in minutes.
        </p>
        <div className="vt-actions">
          <Link className="vt-button vt-button--primary vt-button--lg" to={routePaths.Marketplace}>
            Explore the marketplace
          </Link>
          <Link className="vt-button vt-button--secondary vt-button--lg" to={routePaths.CreateStorefront}>
            Open a storefront
          </Link>
        </div>
      </div>
      <div className="vt-hero__art" aria-hidden="true">
        <div className="vt-hero__card vt-hero__card--a" />
        <div className="vt-hero__card vt-hero__card--b" />
        <div className="vt-hero__card vt-hero__card--c" />
      </div>
    </section>
  );
}
