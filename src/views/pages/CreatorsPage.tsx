import { Link } from '@tanstack/react-router';
import './legal.css';

/** "For creators" (/creators): what a storefront is, how to start selling, royalties. */
export function CreatorsPage() {
  return (
    <article className="vt-page vt-legal">
      <header className="vt-legal__header">
        <p className="vt-eyebrow">For creators</p>
        <h1 className="vt-page__title">Open your own storefront</h1>
        <p className="vt-lead">
          Vitrine gives every creator a storefront on the Flow blockchain: your own corner of the marketplace
          where collectors buy your digital collectibles by card, Apple Pay, Google Pay or crypto.
        </p>
      </header>

      <section className="vt-legal__section">
        <h2>What is a storefront?</h2>
        <p>
          A storefront is your page on Vitrine, with its own address, where your collectibles are listed and
          sold. It is free to create and comes with basic customization:
        </p>
        <ul>
          <li>a name, a short bio and a category, so collectors know what you make;</li>
          <li>your logo and a banner image;</li>
          <li>a light or dark theme;</li>
          <li>a contact email for collectors and partners.</li>
        </ul>
        <p className="vt-muted">
          Need more? Custom domains, full design control and multiple storefronts are available as paid
          monthly features.
        </p>
      </section>

      <section className="vt-legal__section">
        <h2>How it works</h2>
        <ol className="vt-legal__steps">
          <li>
            <h3>Create a storefront</h3>
            <p>
              Pick a name, write a bio, choose a category and upload your logo and banner. To sell, you also
              verify your identity once with our identity-verification partner.
            </p>
          </li>
          <li>
            <h3>Add blueprints</h3>
            <p>
              A blueprint is the template for an NFT: its artwork, name and description, a price from $0 to
              $10,000 and an edition count from 1 to 10,000. Each collector who buys receives their own
              numbered edition, minted to their wallet at the time of purchase.
            </p>
          </li>
          <li>
            <h3>Publish on chain</h3>
            <p>
              Publishing records your blueprints on the Flow blockchain. Your listings appear on Vitrine a few
              minutes later.
            </p>
          </li>
          <li>
            <h3>Watch your sales</h3>
            <p>Follow purchases as they happen from your storefront dashboard.</p>
          </li>
          <li>
            <h3>Get paid</h3>
            <p>Request a payout in US dollars once your available funds reach $10.</p>
          </li>
        </ol>
      </section>

      <section className="vt-legal__section">
        <h2>Royalties on every resale</h2>
        <p>
          Your work keeps earning after the first sale. A royalty is recorded on each NFT when it is minted,
          and when a collector resells it on Vitrine your share is paid to you automatically as part of the
          sale.
        </p>
      </section>

      <section className="vt-legal__section vt-legal__cta">
        <h2>Ready to start?</h2>
        <p>Set up your storefront in a few minutes, or see what other creators are selling first.</p>
        <div className="vt-actions">
          <Link className="vt-button vt-button--primary" to="/create-storefront">
            Create your storefront
          </Link>
          <Link className="vt-button vt-button--secondary" to="/marketplace">
            Explore the marketplace
          </Link>
        </div>
      </section>
    </article>
  );
}
