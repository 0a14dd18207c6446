import { type CSSProperties, type ImgHTMLAttributes, type ReactNode, useState } from 'react';
import { webpSrcSet } from '#domain/assets';
import { cx } from './cx';
import { ImageIcon } from './fieldIcons';

/**
 * Asks the browser to fetch an image before others (the page's largest picture). React 18 has no
 * `fetchPriority` property: it writes the attribute as named, so the name is HTML's lowercase one.
 */
export const HIGH_PRIORITY = { fetchpriority: 'high' };

export interface ImageLoaderProps
  extends Omit<
    ImgHTMLAttributes<HTMLImageElement>,
    'src' | 'alt' | 'width' | 'height' | 'onLoad' | 'onError'
  > {
  /** Image URL; with none, the fallback shows at once. */
  src: string | null | undefined;
  /** Required: describe the image, or "" for a purely decorative one. */
  alt: string;
  /** Intrinsic size in px; with both, the box keeps their ratio before the image arrives. */
  width?: number;
  height?: number;
  /** Box ratio, e.g. 1, 16 / 9 or "4 / 3"; wins over width/height for the shape. */
  aspectRatio?: number | string;
  /** How the image fills the box. Default "cover". */
  fit?: 'cover' | 'contain';
  /** Shown when the image fails (or src is empty); default: an image icon. */
  fallback?: ReactNode;
  /** Corner radius from the tokens. Default "md". */
  radius?: 'none' | 'sm' | 'md' | 'lg' | 'full';
  onLoad?: () => void;
  onError?: () => void;
  /**
   * The image most likely to be the page's largest paint (the first cards, the main artwork): it
   * loads at once with high priority instead of lazily.
   */
  priority?: boolean;
  /** Class of the box; `imgClassName` goes on the img. */
  className?: string;
  imgClassName?: string;
}

/**
 * An image in a box of fixed shape (no layout shift) that shows a still placeholder while loading
 * and a fallback if loading fails. Lazy-loaded and decoded off the main thread unless it has
 * `priority`. A stored image is offered as its WebP copies by width (`sizes` tells the browser how
 * wide the box is), with the original as the fallback.
 */
export function ImageLoader({
  src,
  alt,
  width,
  height,
  aspectRatio,
  fit = 'cover',
  fallback,
  radius = 'md',
  onLoad,
  onError,
  className,
  imgClassName,
  priority = false,
  loading = priority ? 'eager' : 'lazy',
  // The largest paint's image is decoded with the frame that first shows the page, so it appears
  // together with the text: decoded off the main thread, it would only show a frame (or, on a slow
  // phone, a few hundred milliseconds) later. Every other image is decoded off the main thread.
  decoding = priority ? 'sync' : 'async',
  style,
  sizes,
  ...rest
}: ImageLoaderProps) {
  const webp = webpSrcSet(src);
  // Keyed by URL, so a new src starts loading again without an effect.
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const status = !src || src === failedSrc ? 'error' : src === loadedSrc ? 'loaded' : 'loading';

  const ratio =
    aspectRatio !== undefined
      ? String(aspectRatio)
      : width !== undefined && height !== undefined
        ? `${width} / ${height}`
        : undefined;
  const boxStyle: CSSProperties = {
    ...(width !== undefined ? { width: `${width}px`, maxWidth: '100%' } : {}),
    ...(ratio !== undefined ? { aspectRatio: ratio } : height !== undefined ? { height: `${height}px` } : {}),
  };

  const markLoaded = () => {
    if (src) setLoadedSrc(src);
    onLoad?.();
  };
  const markFailed = () => {
    if (src) setFailedSrc(src);
    onError?.();
  };

  return (
    <span
      className={cx('vt-image', `vt-image--radius-${radius}`, `vt-image--${status}`, className)}
      style={boxStyle}
      data-status={status}
    >
      {status === 'loading' ? <span className="vt-image__skeleton vt-skeleton" aria-hidden="true" /> : null}
      {status === 'error' ? (
        alt ? (
          <span className="vt-image__fallback" role="img" aria-label={alt}>
            {fallback ?? <ImageIcon size={28} />}
          </span>
        ) : (
          <span className="vt-image__fallback" aria-hidden="true">
            {fallback ?? <ImageIcon size={28} />}
          </span>
        )
      ) : (
        <picture key={src}>
          {webp && <source type="image/webp" srcSet={webp} sizes={sizes ?? '100vw'} />}
          <img
            {...rest}
            ref={(element) => {
              // An image served from cache may be complete before React attached onLoad.
              if (element?.complete && element.naturalWidth > 0 && src !== loadedSrc) markLoaded();
            }}
            src={src ?? undefined}
            alt={alt}
            width={width}
            height={height}
            loading={loading}
            decoding={decoding}
            className={cx('vt-image__img', `vt-image__img--${fit}`, imgClassName)}
            style={style}
            {...(priority ? HIGH_PRIORITY : {})}
            onLoad={markLoaded}
            onError={markFailed}
          />
        </picture>
      )}
    </span>
  );
}
