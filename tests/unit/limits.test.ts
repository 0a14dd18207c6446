import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { formatBytes, imageProblem, imageRuleHint } from '#domain/assets';
import { validateBilling } from '#domain/billing';
import { errorMessage, errorTexts } from '#domain/errors';
import { ForgotEmail, LastName, Password, SettingsFirstName } from '#domain/schemas/accounts';
import { BlueprintFormCheck } from '#domain/schemas/blueprints';
import { StorefrontReportInput } from '#domain/schemas/catalog';
import { storefrontFieldError } from '#domain/storefronts';
import { fieldError, firstError } from '#domain/validation';

/**
 * A refused value says the rule it broke: length rules name their limits, image rules their
 * formats, size and dimensions, in the words the browser and the server both use.
 */
describe('length rules name their limits', () => {
  it.each([
    ['a storefront name', storefrontFieldError('name', 'x'), 'Storefront name must be 2–50 characters.'],
    [
      'a bio',
      storefrontFieldError('description', 'x'.repeat(2001)),
      'Description must be 2–2,000 characters.',
    ],
    [
      'a forgot-password email',
      fieldError('email', ForgotEmail, `${'x'.repeat(40)}@ex.io`),
      'Email must be at most 40 characters.',
    ],
    [
      'a settings first name',
      fieldError('firstName', SettingsFirstName, 'Al'),
      'First name must be 3–100 characters.',
    ],
    [
      'a last name',
      fieldError('lastName', LastName, 'x'.repeat(101)),
      'Last name must be at most 100 characters.',
    ],
    [
      'a password',
      fieldError('password', Password, 'x'.repeat(201)),
      'Password must be at most 200 characters.',
    ],
  ])('%s', (_, error, text) => expect(error?.message).toBe(text));

  it('a product title and description, a report description', () => {
    const product = v.safeParse(BlueprintFormCheck, { title: '', description: 'x'.repeat(2001) });
    expect(product.success).toBe(false);
    const texts = product.success ? [] : product.issues.map((i) => firstError([i]).message);
    expect(texts).toContain('Title must be 1–200 characters.');
    expect(texts).toContain('Description must be 1–2,000 characters.');
    const report = v.safeParse(StorefrontReportInput, {
      storefrontId: '00000000-0000-4000-8000-000000000000',
      reason: 'other',
      description: 'x'.repeat(201),
    });
    expect(report.success ? null : firstError(report.issues).message).toBe(
      'Description must be at most 200 characters.',
    );
  });

  it('a billing address over its length', () => {
    expect(validateBilling({ addressLine1: 'x'.repeat(201) }).addressLine1?.message).toBe(
      'Address must be at most 200 characters.',
    );
  });

  it('keeps the other rules of a field in their own words', () => {
    expect(fieldError('firstName', SettingsFirstName, '')?.message).toBe('Please enter a first name');
    expect(storefrontFieldError('contactEmail', 'nope')?.message).toBe('Please enter a valid email address');
  });

  it('has no text that leaves a limit unsaid', () => {
    const vague = /too (long|short|big|small|wide|tall)|not (wide|tall) enough|for this field/i;
    expect(Object.entries(errorTexts).filter(([, text]) => vague.test(text))).toEqual([]);
  });
});

describe('image rules name the rule and the image', () => {
  it.each([
    [
      'an 80 × 80 logo',
      'storefrontLogo',
      { format: 'png', bytes: 2048, width: 80, height: 80 },
      'This image is 80 × 80 pixels: it must be at least 100 × 100.',
    ],
    [
      'a 1,000,001-byte logo',
      'storefrontLogo',
      { format: 'png', bytes: 1_000_001, width: 400, height: 400 },
      'This file is 1.1 MB: the limit is 1 MB.',
    ],
    [
      'a GIF banner',
      'storefrontBanner',
      { format: 'gif', bytes: 2048, width: 1500, height: 300 },
      'This file type is not supported. Use a PNG or JPG image.',
    ],
    [
      'a banner too low',
      'storefrontBanner',
      { format: 'jpeg', bytes: 2048, width: 1500, height: 90 },
      'This image is 1500 × 90 pixels: it must be at least 300 × 100.',
    ],
    [
      'a wide asset',
      'blueprintAsset',
      { format: 'png', bytes: 2048, width: 8001, height: 400 },
      'This image is 8001 × 400 pixels: it must be at most 8000 × 8000.',
    ],
  ] as const)('%s', (_, kind, facts, text) => {
    const problem = imageProblem(kind, facts)!;
    expect(errorMessage({ ...problem, field: 'file' })).toBe(text);
  });

  it('states each rule under its picker', () => {
    expect(imageRuleHint('storefrontLogo')).toBe('PNG or JPG, at least 100 × 100 pixels, up to 1 MB.');
    expect(imageRuleHint('userAvatar')).toBe(
      'PNG, GIF or JPG, square, at least 256 × 256 pixels, up to 1 MB.',
    );
    expect(formatBytes(2_000_000)).toBe('2 MB');
  });

  it('falls back to the server’s own words for an answer without the values', () => {
    expect(errorMessage({ code: 'IMAGE_MIN_WIDTH', message: 'Too narrow for a logo.' })).toBe(
      'Too narrow for a logo.',
    );
  });
});
