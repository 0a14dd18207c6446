import { Link } from '@tanstack/react-router';
import { externalLinks } from '#domain/chrome';
import { Logo } from './Logo';

/** The site footer: the main pages, contact, the whitepaper, the blog and social accounts, terms and privacy. */
export function Footer() {
  return (
    <footer className="vt-footer">
      <div className="vt-footer__inner">
        <div className="vt-footer__brand">
          <Logo />
          <p>Collect, sell and showcase digital collectibles on Flow. Creators run their own storefronts.</p>
        </div>
        <nav className="vt-footer__links" aria-label="Footer">
          <Link to="/">Home</Link>
          <Link to="/marketplace">Marketplace</Link>
          <a href={externalLinks.contact}>Contact</a>
          <a href={externalLinks.whitepaper} target="_blank" rel="noreferrer">
            Whitepaper
          </a>
          <a href={externalLinks.blog} target="_blank" rel="noreferrer">
            Blog
          </a>
          <a href={externalLinks.telegram} target="_blank" rel="noreferrer">
            Telegram
          </a>
          <a href={externalLinks.twitter} target="_blank" rel="noreferrer">
            Twitter
          </a>
          <Link to="/terms">Terms</Link>
          <Link to="/privacy">Privacy</Link>
        </nav>
        <p className="vt-footer__copy">© {new Date().getFullYear()} Vitrine</p>
      </div>
    </footer>
  );
}
