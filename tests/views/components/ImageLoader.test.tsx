import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { identiconDataUrl } from '#domain/identicon';
import { Avatar, ImageLoader } from '../../../src/views/components';

describe('ImageLoader', () => {
  it('shows a placeholder while loading, then the image', () => {
    const onLoad = vi.fn();
    const { container } = render(
      <ImageLoader src="/nft/1.png" alt="Moment #1" aspectRatio={1} onLoad={onLoad} />,
    );
    const box = container.firstElementChild as HTMLElement;
    const img = screen.getByRole('img', { name: 'Moment #1' }) as HTMLImageElement;
    expect(box.dataset.status).toBe('loading');
    expect(container.querySelector('.vt-skeleton')).not.toBeNull();
    expect(img.getAttribute('loading')).toBe('lazy');

    fireEvent.load(img);
    expect(box.dataset.status).toBe('loaded');
    expect(container.querySelector('.vt-skeleton')).toBeNull();
    expect(onLoad).toHaveBeenCalledTimes(1);
  });

  it('offers a stored image as its WebP copies by width, the original as fallback', () => {
    const { container } = render(
      <ImageLoader src="/media/art.jpg" alt="Art" aspectRatio={1} sizes="280px" />,
    );
    const source = container.querySelector('picture > source') as HTMLSourceElement;
    expect(source.type).toBe('image/webp');
    expect(source.getAttribute('srcset')).toBe(
      '/media/art.jpg.w96.webp 96w, /media/art.jpg.w320.webp 320w, /media/art.jpg.w640.webp 640w, /media/art.jpg.w1000.webp 1000w, /media/art.jpg.w1600.webp 1600w',
    );
    expect(source.getAttribute('sizes')).toBe('280px');
    expect(screen.getByRole('img', { name: 'Art' }).getAttribute('src')).toBe('/media/art.jpg');
    // A GIF or an image from elsewhere has no copies.
    const { container: other } = render(<ImageLoader src="/media/anim.gif" alt="Anim" />);
    expect(other.querySelector('source')).toBeNull();
  });

  it('loads a priority image at once with high priority, decoded with the page; others lazily, decoded apart', () => {
    render(<ImageLoader src="/media/first.jpg" alt="First" priority />);
    const first = screen.getByRole('img', { name: 'First' });
    expect(first.getAttribute('loading')).toBe('eager');
    expect(first.getAttribute('fetchpriority')).toBe('high');
    expect(first.getAttribute('decoding')).toBe('sync');
    render(<ImageLoader src="/media/later.jpg" alt="Later" />);
    const later = screen.getByRole('img', { name: 'Later' });
    expect(later.getAttribute('loading')).toBe('lazy');
    expect(later.getAttribute('fetchpriority')).toBeNull();
    expect(later.getAttribute('decoding')).toBe('async');
  });

  it('shows the fallback, still named by alt, when the image fails', () => {
    const { container } = render(
      <ImageLoader src="/missing.png" alt="Storefront banner" width={1200} height={300} />,
    );
    fireEvent.error(screen.getByRole('img', { name: 'Storefront banner' }));
    const box = container.firstElementChild as HTMLElement;
    expect(box.dataset.status).toBe('error');
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'Storefront banner' }).className).toContain('vt-image__fallback');
  });

  it('uses a custom fallback and shows it at once without a src', () => {
    render(<ImageLoader src={null} alt="" fallback={<span>No image</span>} />);
    expect(screen.getByText('No image')).toBeTruthy();
  });

  it('reserves its box: aspect ratio from width/height or aspectRatio, intrinsic size on the img', () => {
    const { container, rerender } = render(<ImageLoader src="/a.png" alt="a" width={320} height={180} />);
    const box = container.firstElementChild as HTMLElement;
    const img = container.querySelector('img')!;
    expect(box.style.aspectRatio).toBe('320 / 180');
    expect(box.style.width).toBe('320px');
    expect(img.getAttribute('width')).toBe('320');
    expect(img.getAttribute('height')).toBe('180');

    rerender(<ImageLoader src="/a.png" alt="a" aspectRatio="16 / 9" />);
    expect((container.firstElementChild as HTMLElement).style.aspectRatio).toBe('16 / 9');
  });

  it('starts loading again when src changes', () => {
    const { container, rerender } = render(<ImageLoader src="/a.png" alt="a" />);
    fireEvent.load(container.querySelector('img')!);
    rerender(<ImageLoader src="/b.png" alt="a" />);
    expect((container.firstElementChild as HTMLElement).dataset.status).toBe('loading');
  });
});

describe('Avatar', () => {
  const address = '0x01cf0e2f2f715450';

  it('shows the uploaded image when given', () => {
    const { container } = render(<Avatar src="/avatars/ada.png" seed={address} alt="Ada" size="lg" />);
    const img = screen.getByRole('img', { name: 'Ada' });
    expect(img.getAttribute('src')).toBe('/avatars/ada.png');
    expect(img.getAttribute('width')).toBe('64');
    expect((container.firstElementChild as HTMLElement).dataset.kind).toBe('image');
  });

  it('otherwise shows the identicon of the wallet address', () => {
    render(<Avatar seed={address} alt="Ada" size={48} />);
    expect(screen.getByRole('img', { name: 'Ada' }).getAttribute('src')).toBe(identiconDataUrl(address, 48));
  });

  it('is the same picture for the same address and different for another', () => {
    render(
      <>
        <Avatar seed={address} alt="one" />
        <Avatar seed={address.toUpperCase().replace('0X', '0x')} alt="two" />
        <Avatar seed="0x179b6b1cb6755e31" alt="three" />
      </>,
    );
    const src = (name: string) => screen.getByRole('img', { name }).getAttribute('src');
    expect(src('one')).toBe(src('two'));
    expect(src('one')).not.toBe(src('three'));
  });

  it('loads eagerly unless asked to wait until it nears the viewport', () => {
    render(
      <>
        <Avatar src="/avatars/ada.png" alt="first" />
        <Avatar src="/avatars/ada.png" alt="below" loading="lazy" />
      </>,
    );
    expect(screen.getByRole('img', { name: 'first' }).getAttribute('loading')).toBeNull();
    expect(screen.getByRole('img', { name: 'below' }).getAttribute('loading')).toBe('lazy');
  });

  it('falls back to the identicon when the uploaded image fails', () => {
    const { container } = render(<Avatar src="/broken.png" seed={address} alt="Ada" />);
    fireEvent.error(screen.getByRole('img', { name: 'Ada' }));
    expect(screen.getByRole('img', { name: 'Ada' }).getAttribute('src')).toBe(identiconDataUrl(address, 40));
    expect((container.firstElementChild as HTMLElement).dataset.kind).toBe('identicon');
  });
});
