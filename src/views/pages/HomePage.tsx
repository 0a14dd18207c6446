import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { homeTrendingView } from '#domain/statsView';
// The component files, not the components barrel: Home is in the first-load bundle.
import { Carousel } from '../components/Carousel';
import './home.css';

const route = getRouteApi('/');

interface Slide {
  title: string;
  body: ReactNode;
}

/** The explainer carousel: 4 slides the visitor moves through (it never scrolls on its own). */
const explainer: Slide[] = [
  {
    title: 'Digital collectibles you truly own',
    body: (
      <p>
        Every item on Vitrine is an NFT on the Flow blockchain: a numbered edition of a creator's work. It is
        minted to your Flow wallet at the time of purchase, so it is yours to keep, resell or show off.
      </p>
    ),
  },
  {
    title: 'Buy the way you like',
    body: (
      <p>
        Pay by card, Apple Pay or Google Pay, with crypto, or from your FUSD balance, a stablecoin pegged to
        the US dollar. No identity verification is needed to buy.
      </p>
    ),
  },
  {
    title: 'Resell what you own',
    body: (
      <p>
        List any collectible you own on the marketplace at your price. Selling requires a one-time identity
        verification (KYC). Your listing is posted to the blockchain and appears on the marketplace a few
        minutes later.
      </p>
    ),
  },
  {
    title: 'Show off your collection',
    body: (
      <p>
        Everything you collect appears on your profile, where you can browse your items and share them with
        friends and other collectors.
      </p>
    ),
  },
];

const faq: { question: string; answer: ReactNode }[] = [
  {
    question: 'What is Vitrine?',
    answer: (
      <p>
        Vitrine is a marketplace for digital collectibles (NFTs) on the Flow blockchain. Collectors buy drops,
        packs and editions from independent creators and resell what they own; creators sell from their own
        storefronts.
      </p>
    ),
  },
  {
    question: 'Do I need a crypto wallet?',
    answer: (
      <p>
        You can sign up with just an email. To receive collectibles you connect a Flow wallet, such as Blocto:
        each one is minted to your wallet at the time of purchase. You do not need to own any crypto to pay.
      </p>
    ),
  },
  {
    question: 'How do I pay?',
    answer: (
      <p>
        By card, Apple Pay or Google Pay, with crypto, or from your FUSD balance (a stablecoin pegged to the
        US dollar).
      </p>
    ),
  },
  {
    question: 'Do I need to verify my identity?',
    answer: (
      <p>
        Only to sell. Selling NFTs, whether reselling what you own or selling from a storefront, requires
        identity verification (KYC). Buying does not.
      </p>
    ),
  },
  {
    question: 'What does it cost to open a storefront?',
    answer: (
      <p>
        Nothing: creating a storefront is free and includes basic customization. Custom domains, full design
        control and multiple storefronts are paid features, billed monthly.
      </p>
    ),
  },
];

/**
 * Home: the hero, "Trending now" and "Top storefronts this week" (each when it lists something; plain
 * markup, as Home ships with the shell), the explainer carousel, the create-and-sell steps and a FAQ
 * of 5 questions.
 */
export function HomePage() {
  const trending = homeTrendingView(route.useLoaderData()?.trending);
  return (
    <div className="vt-home">
      <section className="vt-hero">
        <div className="vt-hero__text">
          <p className="vt-eyebrow">Digital collectibles on Flow</p>
          <h1>Collect what you love. Sell what you make.</h1>
          <p className="vt-lead">
            Buy drops, packs and editions from independent creators, resell what you own and show it off on
            your profile. Creators open their own storefront in minutes.
          </p>
          <div className="vt-actions">
            <Link className="vt-button vt-button--primary vt-button--lg" to="/marketplace">
              Explore the marketplace
            </Link>
            <Link className="vt-button vt-button--secondary vt-button--lg" to="/create-storefront">
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

      {trending.items.length > 0 && (
        <section className="vt-home__section" aria-labelledby="vt-home-trending">
          <p className="vt-eyebrow">Most sales in the last 24 hours</p>
          <h2 id="vt-home-trending">Trending now</h2>
          <ul className="vt-home__trending">
            {trending.items.map((item) => (
              <li key={item.id}>
                <Link to="/nft/$id" params={{ id: item.id }} className="vt-home__item">
                  <img src={item.image ?? undefined} alt="" width={200} height={200} loading="lazy" />
                  <span className="vt-home__item-title">{item.title}</span>
                  <span className="vt-muted">{item.storefront}</span>
                  <strong>{item.price}</strong>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      {trending.storefronts.length > 0 && (
        <section className="vt-home__section" aria-labelledby="vt-home-top">
          <p className="vt-eyebrow">By sales volume</p>
          <h2 id="vt-home-top">Top storefronts this week</h2>
          <ol className="vt-home__top">
            {trending.storefronts.map((s) => (
              <li key={s.id}>
                <span className="vt-home__rank" aria-hidden="true">
                  {s.rank}
                </span>
                <span>
                  <Link to="/s/$vanityUrl" params={{ vanityUrl: s.vanityUrl }} className="vt-home__store">
                    {s.name}
                  </Link>
                  <span className="vt-muted">
                    {s.volume} · {s.floor}
                  </span>
                </span>
              </li>
            ))}
          </ol>
        </section>
      )}
      <section className="vt-home__section" aria-labelledby="vt-home-how">
        <p className="vt-eyebrow">How it works</p>
        <h2 id="vt-home-how">New to digital collectibles?</h2>
        <Carousel
          className="vt-home__carousel"
          label="How Vitrine works"
          slides={explainer.map((slide, i) => (
            <article key={slide.title} className="vt-home__slide">
              <span className="vt-home__slide-number" aria-hidden="true">
                {i + 1}
              </span>
              <div>
                <h3>{slide.title}</h3>
                {slide.body}
              </div>
            </article>
          ))}
        />
      </section>

      <section className="vt-home__section" aria-labelledby="vt-home-create">
        <p className="vt-eyebrow">For creators</p>
        <h2 id="vt-home-create">Create and sell</h2>
        <ol className="vt-home__steps">
          <li>
            <h3>Open a free storefront</h3>
            <p>Give it a name, a bio and a category, upload your logo and banner, and pick a theme.</p>
          </li>
          <li>
            <h3>Add blueprints</h3>
            <p>
              A blueprint is the template of an NFT: its artwork and description, a price and an edition
              count.
            </p>
          </li>
          <li>
            <h3>Publish on chain</h3>
            <p>
              Your blueprints are recorded on the Flow blockchain and appear on Vitrine a few minutes later.
            </p>
          </li>
          <li>
            <h3>Watch sales and get paid</h3>
            <p>Follow your sales from your dashboard and request a payout in US dollars from $10.</p>
          </li>
        </ol>
        <div className="vt-actions">
          <Link className="vt-button vt-button--primary" to="/create-storefront">
            Create your storefront
          </Link>
        </div>
      </section>

      <section className="vt-home__section vt-home__faq" aria-labelledby="vt-home-faq">
        <p className="vt-eyebrow">FAQ</p>
        <h2 id="vt-home-faq">Frequently asked questions</h2>
        <div className="vt-home__faq-list">
          {faq.map(({ question, answer }) => (
            <details key={question} className="vt-home__faq-item">
              <summary>{question}</summary>
              <div className="vt-home__faq-answer">{answer}</div>
            </details>
          ))}
        </div>
      </section>
    </div>
  );
}
