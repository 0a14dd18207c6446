import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routePaths } from '#domain/routes';
import { HomePage } from '../../../src/views/pages/HomePage';

const Stub = () => <p>Elsewhere</p>;

/** Home's lists as GET home/trending answers them (only the fields Home shows are real). */
const lists = {
  items: Array.from({ length: 8 }, (_, i) => ({
    id: `b${i}`,
    title: `Item ${i}`,
    previewImageUrl: `/media/item-${i}.png`,
    price: 1000 + i * 250,
    storefront: { id: 's1', name: 'Aria Sounds' },
  })),
  storefronts: [
    {
      storefront: { id: 's1', name: 'Aria Sounds', vanityUrl: 'aria', logoUrl: null },
      stats: { floor: 1000, volume7d: 1_234_500 },
    },
    {
      storefront: { id: 's2', name: 'Night Loops', vanityUrl: 'loops', logoUrl: null },
      stats: { floor: null, volume7d: 50_000 },
    },
  ],
  updatedAt: '2026-11-28T20:00:00.000Z',
};

/**
 * Renders Home in a memory-history router holding the routes it links to; its loader answers
 * `trending` (Home's lists), none by default.
 */
async function renderHome(trending: unknown = null) {
  const root = createRootRoute();
  const router = createRouter({
    routeTree: root.addChildren([
      createRoute({
        getParentRoute: () => root,
        path: routePaths.Home,
        component: HomePage,
        loader: () => ({ trending }),
      }),
      createRoute({ getParentRoute: () => root, path: routePaths.Marketplace, component: Stub }),
      createRoute({ getParentRoute: () => root, path: routePaths.CreateStorefront, component: Stub }),
      createRoute({ getParentRoute: () => root, path: '/nft/$id', component: Stub }),
      createRoute({ getParentRoute: () => root, path: '/s/$vanityUrl', component: Stub }),
    ]),
    history: createMemoryHistory({ initialEntries: [routePaths.Home] }),
  });
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(<RouterProvider router={router as never} />);
    await router.load();
  });
  expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
  return view;
}

const carousel = () => screen.getByRole('region', { name: 'How Vitrine works' });
const slides = () => within(carousel()).getAllByRole('group', { hidden: true });
/** The index of the slide that is shown (the one not inert). */
const shown = () => slides().findIndex((slide) => !slide.hasAttribute('inert'));
const textOf = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ');

afterEach(() => {
  vi.useRealTimers();
});

describe('Home page', () => {
  it('keeps the hero', async () => {
    await renderHome();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Collect what you love. Sell what you make.' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Explore the marketplace' }).getAttribute('href')).toBe(
      routePaths.Marketplace,
    );
  });

  it('shows Trending now (8 items) and Top storefronts this week from its loader', async () => {
    await renderHome(lists);
    const trending = screen.getByRole('region', { name: 'Trending now' });
    const items = within(trending).getAllByRole('link');
    expect(items).toHaveLength(8);
    expect(textOf(items[1]!)).toBe('Item 1Aria Sounds$12.50');
    expect(items[1]!.getAttribute('href')).toBe('/nft/b1');
    const top = screen.getByRole('region', { name: 'Top storefronts this week' });
    const ranked = within(top).getAllByRole('listitem').map(textOf);
    expect(ranked).toEqual([
      '1Aria Sounds$12,345 this week · Floor $10',
      '2Night Loops$500 this week · Floor —',
    ]);
    expect(within(top).getByRole('link', { name: 'Night Loops' }).getAttribute('href')).toBe('/s/loops');
  });

  it('leaves the lists out when nothing sold (or they did not load)', async () => {
    await renderHome({ ...lists, items: [], storefronts: [] });
    expect(screen.queryByRole('region', { name: 'Trending now' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Top storefronts this week' })).toBeNull();
  });

  it('has an explainer carousel of 4 slides', async () => {
    await renderHome();
    expect(carousel().getAttribute('aria-roledescription')).toBe('carousel');
    const groups = slides();
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['1 of 4', '2 of 4', '3 of 4', '4 of 4']);
    for (const g of groups) expect(g.getAttribute('aria-roledescription')).toBe('slide');
    const [what, buy, resell, profile] = groups.map(textOf);
    expect(what).toContain('minted to your Flow wallet at the time of purchase');
    for (const way of ['card', 'Apple Pay', 'Google Pay', 'crypto', 'FUSD']) expect(buy).toContain(way);
    expect(resell).toContain('identity verification (KYC)');
    expect(resell).toContain('a few minutes later');
    expect(profile).toContain('profile');
  });

  it('does not auto-scroll the carousel', async () => {
    vi.useFakeTimers();
    await renderHome();
    expect(shown()).toBe(0);
    await act(async () => vi.advanceTimersByTime(10_000));
    expect(shown()).toBe(0);
    expect(
      within(carousel()).getByRole('button', { name: 'Go to slide 1' }).getAttribute('aria-current'),
    ).toBe('true');
  });

  it('lists the create-and-sell steps and links to storefront creation', async () => {
    await renderHome();
    const section = screen.getByRole('region', { name: 'Create and sell' });
    const list = within(section).getByRole('list');
    expect(list.tagName).toBe('OL');
    const steps = within(list).getAllByRole('listitem');
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.length).toBeLessThanOrEqual(4);
    const text = textOf(section);
    for (const fact of [
      'free storefront',
      'blueprint',
      'price',
      'edition count',
      'on chain',
      'payout',
      '$10',
    ]) {
      expect(text).toContain(fact);
    }
    expect(within(section).getByRole('link', { name: 'Create your storefront' }).getAttribute('href')).toBe(
      routePaths.CreateStorefront,
    );
  });

  it('has an FAQ of exactly 5 questions in details/summary', async () => {
    await renderHome();
    const section = screen.getByRole('region', { name: 'Frequently asked questions' });
    const details = section.querySelectorAll('details');
    expect(details).toHaveLength(5);
    for (const d of details) {
      expect(d.querySelector(':scope > summary')?.textContent?.trim()).toMatch(/\?$/);
      expect(d.open).toBe(false);
    }
    const text = textOf(section);
    expect(text).toContain('Buying does not');
    expect(text).toContain('creating a storefront is free and includes basic customization');
    expect(text).toContain('billed monthly');
  });

  it('has one h1 first and never skips a heading level', async () => {
    const { container } = await renderHome(lists);
    const levels = [...container.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    expect(levels[0]).toBe(1);
    expect(levels.filter((l) => l === 1)).toHaveLength(1);
    expect(levels.filter((l) => l === 2).length).toBeGreaterThanOrEqual(3);
    levels.forEach((level, i) => {
      const previous = i === 0 ? 0 : levels[i - 1]!;
      expect(level, `heading ${i} follows an h${previous}`).toBeLessThanOrEqual(previous + 1);
    });
  });
});
