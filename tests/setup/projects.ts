/** The browser-side tests: units, views and the machines' model-based paths (jsdom). */
export const webTests = [
  'tests/unit/**/*.test.{ts,tsx}',
  'tests/views/**/*.test.{ts,tsx}',
  'model-tests/**/*.test.{ts,tsx}',
];

/**
 * Those of them that replace a module with vi.mock: they run with a module graph of their own
 * (tests/unit/test-projects.test.ts keeps this list complete).
 */
export const mockingWebTests = ['model-tests/checkout.page.test.tsx', 'model-tests/checkout.view.test.tsx'];
