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

/** Renders Home in a memory-history router holding the routes it links to. */
async function renderHome() {
  const root = createRootRoute();
  const router = createRouter({
    routeTree: root.addChildren([
      createRoute({ getParentRoute: () => root, path: routePaths.Home, component: HomePage }),
      createRoute({ getParentRoute: () => root, path: routePaths.Marketplace, component: Stub }),
      createRoute({ getParentRoute: () => root, path: routePaths.CreateStorefront, component: Stub }),
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
    const { container } = await renderHome();
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
