import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { ImageFacts } from '#domain/assets';
import { connectStorefrontWizard, storefrontWizardMachine } from '../machines/storefrontWizard';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { storefrontWizardModel } from './storefrontWizard.model';

describe('storefront wizard machine paths', () => {
  const paths = generatePaths(storefrontWizardModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(storefrontWizardModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('the image steps check their image before Continue', () => {
  /** A wizard on its logo step whose browser reads every chosen image as `facts`. */
  function atLogo(facts: ImageFacts) {
    const actor = createActor(
      storefrontWizardMachine.provide({
        actors: { inspectImage: fromPromise(async () => facts) },
      }),
    ).start();
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.change', field: 'name', value: 'Night Loops' });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.change', field: 'description', value: 'Loops recorded at night.' });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.skip' });
    expect(actor.getSnapshot().matches('logo')).toBe(true);
    return actor;
  }
  const view = (actor: ReturnType<typeof atLogo>) => connectStorefrontWizard(actor.getSnapshot(), actor.send);
  const logo = new File([new Uint8Array(2048)], 'logo.png', { type: 'image/png' });

  it('refuses an 80 × 80 logo at its step, naming the rule, and Continue stays there', async () => {
    const actor = atLogo({ format: 'png', bytes: 2048, width: 80, height: 80 });
    actor.send({ type: 'wizard.file', field: 'logo', file: logo });
    await new Promise((r) => setTimeout(r, 0));
    const message = 'This image is 80 × 80 pixels: it must be at least 100 × 100.';
    expect(view(actor).fieldError).toBe(message);
    actor.send({ type: 'wizard.next' });
    expect(view(actor).step).toBe('logo');
    expect(view(actor).fieldError).toBe(message);
  });

  it('refuses a logo over 1 MB and a GIF, naming the limit and the formats', async () => {
    const big = atLogo({ format: 'png', bytes: 1_400_000, width: 400, height: 400 });
    big.send({ type: 'wizard.file', field: 'logo', file: logo });
    await new Promise((r) => setTimeout(r, 0));
    big.send({ type: 'wizard.next' });
    expect(view(big)).toMatchObject({ step: 'logo', fieldError: 'This file is 1.4 MB: the limit is 1 MB.' });
    const gif = atLogo({ format: 'gif', bytes: 2048, width: 400, height: 400 });
    gif.send({ type: 'wizard.file', field: 'logo', file: logo });
    await new Promise((r) => setTimeout(r, 0));
    gif.send({ type: 'wizard.next' });
    expect(view(gif)).toMatchObject({
      step: 'logo',
      fieldError: 'This file type is not supported. Use a PNG or JPG image.',
    });
  });

  it('takes a logo that passes the rules on to the banner step', async () => {
    const actor = atLogo({ format: 'png', bytes: 2048, width: 100, height: 100 });
    actor.send({ type: 'wizard.file', field: 'logo', file: logo });
    await new Promise((r) => setTimeout(r, 0));
    expect(view(actor).fieldError).toBeNull();
    actor.send({ type: 'wizard.next' });
    expect(view(actor).step).toBe('banner');
    expect(view(actor).imageRule).toContain('PNG or JPG, at least 300 × 100 pixels, up to 2 MB.');
  });
});
