import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadable } from '../../src/lazy';

/** A module that arrives when the test says so. */
function deferredModule() {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;
  return { arrive, load: () => arrived.then(() => Greeting) };
}

describe('a component loaded on demand (preloadable)', () => {
  it('renders at once, never through its fallback, when its module was fetched ahead', async () => {
    const { arrive, load } = deferredModule();
    const Greeting = preloadable(load);
    const preloaded = Greeting.preload();
    arrive();
    await preloaded;
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Greeting name="Ada" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Ada')).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();
  });

  it('mounted before, shows its fallback until the module arrives, then the component', async () => {
    const { arrive, load } = deferredModule();
    const Greeting = preloadable(load);
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Greeting name="Grace" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeTruthy();
    await act(async () => arrive());
    expect(await screen.findByText('Hello Grace')).toBeTruthy();
  });
});
