import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  type RouteComponent,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SUPPORT_EMAIL } from '#domain/constants';
import { routePaths } from '#domain/routes';
import { CreatorsPage } from '../../../src/views/pages/CreatorsPage';
import { PrivacyPage } from '../../../src/views/pages/PrivacyPage';
import { TermsPage } from '../../../src/views/pages/TermsPage';

const Stub = () => <p>Elsewhere</p>;
const pages: Record<string, RouteComponent> = {
  [routePaths.PrivacyPolicyPage]: PrivacyPage,
  [routePaths.TermsPage]: TermsPage,
  [routePaths.Creators]: CreatorsPage,
  [routePaths.Marketplace]: Stub,
  [routePaths.CreateStorefront]: Stub,
};

/** Renders `path` in a memory-history router holding the static pages and the routes they link to. */
async function renderAt(path: string) {
  const root = createRootRoute();
  const router = createRouter({
    routeTree: root.addChildren(
      Object.entries(pages).map(([p, component]) =>
        createRoute({ getParentRoute: () => root, path: p, component }),
      ),
    ),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  const view = render(<RouterProvider router={router as never} />);
  await screen.findByRole('heading', { level: 1 });
  return view;
}

/** The page's visible text on one line, so facts can be matched across line breaks in the source. */
const textOf = (el: HTMLElement) => (el.textContent ?? '').replace(/\s+/g, ' ');

const legalPages = [
  { name: 'Privacy Policy', path: routePaths.PrivacyPolicyPage, updated: 'Feb 23, 2022', iso: '2022-02-23' },
  { name: 'Terms of Service', path: routePaths.TermsPage, updated: 'Feb 18, 2023', iso: '2023-02-18' },
] as const;

describe('legal pages', () => {
  for (const { name, path, updated, iso } of legalPages) {
    it(`${name}: title and last-updated date`, async () => {
      const { container } = await renderAt(path);
      expect(screen.getByRole('heading', { level: 1, name })).toBeTruthy();
      expect(textOf(container)).toContain(`Last updated ${updated}`);
      expect(container.querySelector('time')?.getAttribute('dateTime')).toBe(iso);
    });

    it(`${name}: every table-of-contents link points at a section, in order`, async () => {
      const { container } = await renderAt(path);
      const toc = screen.getByRole('navigation', { name: 'Contents' });
      const hrefs = within(toc)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href'));
      const sections = [...container.querySelectorAll('section[id]')];
      expect(sections.length).toBeGreaterThan(5);
      expect(hrefs).toEqual(sections.map((s) => `#${s.id}`));
      sections.forEach((section, i) => {
        const heading = section.querySelector('h2');
        const link = within(toc).getAllByRole('link')[i];
        expect(heading?.textContent).toBe(`${i + 1}. ${link?.textContent}`);
      });
      // In-body anchors lead somewhere too.
      for (const a of container.querySelectorAll('a[href^="#"]')) {
        expect(container.querySelector(a.getAttribute('href')!)).not.toBeNull();
      }
    });

    it(`${name}: support address is a mail link`, async () => {
      await renderAt(path);
      const links = screen.getAllByRole('link', { name: SUPPORT_EMAIL });
      for (const link of links) expect(link.getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);
    });
  }

  it('Privacy Policy: response times, California rights, payment data and required sections', async () => {
    const { container } = await renderAt(routePaths.PrivacyPolicyPage);
    const text = textOf(container);
    expect(text).toContain('We answer data requests within 90 days.');
    expect(text).toContain('Privacy complaints are answered within 60 days.');
    expect(text).toContain('in the preceding 12 months (a 12-month look-back)');
    expect(text).toContain('We never store full card numbers');
    expect(text).toContain('last four digits');
    expect(text).toContain('identity-verification partner');
    expect(text).toContain('public and permanent');
    for (const id of ['cookies', 'data-retention', 'export-laws', 'termination', 'california', 'children']) {
      expect(container.querySelector(`section#${id} h2`)).not.toBeNull();
    }
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
      routePaths.TermsPage,
    );
  });

  it('Terms of Service: eligibility, liability cap, arbitration and selling rules', async () => {
    const { container } = await renderAt(routePaths.TermsPage);
    const text = textOf(container);
    expect(text).toContain('You must be at least 18 years old');
    expect(text).toContain(
      "If you are 13 to 17 years old, you may use the Service only through a parent's or",
    );
    expect(text).toContain("guardian's account");
    expect(text).toContain('limited to the greater of $100 or the amount we received from you');
    expect(text).toContain('resolve the dispute informally for 30 days');
    expect(text).toContain("Claims below $250,000 are decided under the arbitration provider's streamlined");
    expect(text).toContain('For claims below $10,000, we will reimburse');
    expect(text).toContain('you pay no more than $250 in total');
    expect(text).toContain('reject the change by writing to');
    expect(text).toContain('within 30 days of the change taking effect');
    expect(text).toContain('Selling NFTs requires identity verification (KYC)');
    expect(text).toContain('Buying does not require identity verification.');
    expect(text).toContain('minted to your wallet at the time of purchase');
    expect(text).toContain('it takes a few minutes to appear');
    expect(text).toContain('Creating a storefront is free and includes basic customization.');
    expect(text).toContain('Custom domains, full design control and multiple storefronts are paid features');
    expect(text).toContain('billed monthly');
    for (const id of ['export-laws', 'termination', 'privacy-and-cookies', 'disputes']) {
      expect(container.querySelector(`section#${id} h2`)).not.toBeNull();
    }
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      routePaths.PrivacyPolicyPage,
    );
  });
});

describe('For creators page', () => {
  it('explains storefronts, the steps, limits, royalties and links to start', async () => {
    const { container } = await renderAt(routePaths.Creators);
    const text = textOf(container);
    expect(screen.getByRole('heading', { level: 2, name: 'What is a storefront?' })).toBeTruthy();
    for (const fact of [
      'free to create',
      'basic customization',
      'a light or dark theme',
      'a contact email',
    ]) {
      expect(text).toContain(fact);
    }
    expect(text).toContain('a price from $0 to $10,000 and an edition count from 1 to 10,000');
    expect(text).toContain('once your available funds reach $10.');
    expect(screen.getByRole('heading', { level: 2, name: 'Royalties on every resale' })).toBeTruthy();
    const steps = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(steps).toEqual([
      'Create a storefront',
      'Add blueprints',
      'Publish on chain',
      'Watch your sales',
      'Get paid',
    ]);
    expect(screen.getByRole('link', { name: 'Create your storefront' }).getAttribute('href')).toBe(
      routePaths.CreateStorefront,
    );
    expect(screen.getByRole('link', { name: 'Explore the marketplace' }).getAttribute('href')).toBe(
      routePaths.Marketplace,
    );
  });
});

describe('heading hierarchy', () => {
  for (const path of [routePaths.PrivacyPolicyPage, routePaths.TermsPage, routePaths.Creators]) {
    it(`${path}: one h1 first, and no level is skipped`, async () => {
      const { container } = await renderAt(path);
      const levels = [...container.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) =>
        Number(h.tagName[1]),
      );
      expect(levels[0]).toBe(1);
      expect(levels.filter((l) => l === 1)).toHaveLength(1);
      levels.forEach((level, i) => {
        const previous = i === 0 ? 0 : levels[i - 1]!;
        expect(level, `heading ${i} follows an h${previous}`).toBeLessThanOrEqual(previous + 1);
      });
    });
  }
});
