import { Link } from '@tanstack/react-router';
import { externalLinks, routePaths } from '#domain/routes';
import { Logo } from './Logo';

/** Footer of SPEC §2. */
export function Footer() {
  return (
    <footer className="vt-footer">
      <div className="vt-footer__inner">
        <div className="vt-footer__brand">
          <Logo />
          <p>Collect, sell and showcase digital collectibles on Flow. Creators run their own storefronts.</p>
        </div>
        <nav className="vt-footer__links" aria-label="Footer">
          <Link to={routePaths.Home}>Home</Link>
          <Link to={routePaths.Marketplace}>Marketplace</Link>
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
          <Link to={routePaths.TermsPage}>Terms</Link>
          <Link to={routePaths.PrivacyPolicyPage}>Privacy</Link>
        </nav>
        <p className="vt-footer__copy">© {new Date().getFullYear()} Vitrine</p>
      </div>
    </footer>
  );
}
