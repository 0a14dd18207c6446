import { type CSSProperties, useMemo, useState } from 'react';
import { webpSrcSet } from '#domain/assets';
import { identiconDataUrl } from '#domain/identicon';
import { cx } from './cx';

export type AvatarSize = 'xs' | 'sm' | 'md' | 'lg' | 'xl';

const SIZES: Record<AvatarSize, number> = { xs: 24, sm: 32, md: 40, lg: 64, xl: 96 };

export interface AvatarProps {
  /** Uploaded image; when missing or broken, the identicon shows instead. */
  src?: string | null;
  /** Seed of the identicon: the wallet address (or any stable string, e.g. a user id). Default: alt. */
  seed?: string | null;
  /** Text alternative, e.g. the user's name; "" when a visible name sits next to the avatar. */
  alt: string;
  /** xs 24, sm 32, md 40 (default), lg 64, xl 96 px, or a pixel size. */
  size?: AvatarSize | number;
  /** circle (default) or rounded square (storefront logos). */
  shape?: 'circle' | 'rounded';
  /** lazy: fetched only as it nears the viewport (an avatar below the fold); default eager. */
  loading?: 'eager' | 'lazy';
  className?: string;
}

/** A user's picture: the uploaded image, else an identicon generated from the wallet address. */
export function Avatar({ src, seed, alt, size = 'md', shape = 'circle', loading, className }: AvatarProps) {
  const pixels = typeof size === 'number' ? size : SIZES[size];
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const identiconSeed = seed ?? alt;
  const showUpload = Boolean(src) && src !== failedSrc;
  // Drawn only when it shows: a page of cards with uploaded logos draws none.
  const identicon = useMemo(
    () => (showUpload ? null : identiconDataUrl(identiconSeed, pixels)),
    [showUpload, identiconSeed, pixels],
  );
  const style = { '--vt-avatar-size': `${pixels}px` } as CSSProperties;
  // An uploaded image is fetched as its smallest WebP copy that fills the avatar.
  const copies = showUpload ? webpSrcSet(src) : null;

  return (
    <span
      className={cx('vt-avatar', `vt-avatar--${shape}`, className)}
      style={style}
      data-kind={showUpload ? 'image' : 'identicon'}
    >
      <picture key={showUpload ? 'image' : 'identicon'}>
        {copies && <source type="image/webp" srcSet={copies} sizes={`${pixels}px`} />}
        <img
          className="vt-avatar__img"
          src={showUpload ? (src as string) : (identicon as string)}
          alt={alt}
          width={pixels}
          height={pixels}
          decoding="async"
          loading={loading}
          onError={showUpload ? () => setFailedSrc(src ?? null) : undefined}
        />
      </picture>
    </span>
  );
}
