import type { ReactNode } from 'react';
import { webpSrcSet } from '#domain/assets';
import { categoryLabels, type StorefrontJson } from '#domain/catalog';
import { Avatar } from '../components/Avatar';
import { HIGH_PRIORITY } from '../components/ImageLoader';
import './catalog.css';

/**
 * A storefront's frame in its theme: banner, then a side with logo, name and category (plus `side`)
 * next to `children`. The public page and the dashboard preview share it.
 */
export function StorefrontFrame({
  storefront: s,
  heading: H = 'h1',
  side,
  children,
}: {
  storefront: StorefrontJson;
  heading?: 'h1' | 'h2';
  side?: ReactNode;
  children: ReactNode;
}) {
  const bannerCopies = webpSrcSet(s.bannerUrl);
  return (
    <article className={`vt-storefront vt-storefront--${s.theme}`} data-theme={s.theme}>
      <div className="vt-storefront__banner">
        {s.bannerUrl && (
          // The banner is the page's largest paint: it loads first, at the copy as wide as the screen.
          <picture>
            {bannerCopies && <source type="image/webp" srcSet={bannerCopies} sizes="100vw" />}
            <img src={s.bannerUrl} alt="" width={1500} height={300} {...HIGH_PRIORITY} />
          </picture>
        )}
      </div>
      <div className="vt-storefront__body">
        <aside className="vt-storefront__side" aria-label="About this storefront">
          <div className="vt-storefront__logo">
            <Avatar src={s.logoUrl ?? undefined} seed={s.id} alt={`${s.name} logo`} size={104} />
          </div>
          <H className="vt-page__title">{s.name}</H>
          {s.category && <p className="vt-muted">{categoryLabels[s.category]}</p>}
          {side}
        </aside>
        {children}
      </div>
    </article>
  );
}
