import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { errorMessage } from '#domain/errors';
import { REDACTED, redact } from '#domain/redact';
import { afterLoginTarget, isChromelessPath } from '#domain/routes';
import { SignupUsername } from '#domain/schemas/accounts';
import { readSessionToken } from '#domain/token';
import { generatedPassword, generatedUsername, randomLetters } from '#domain/username';

const jwt = (payload: object) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

describe('session token', () => {
  it('reads userId, role and expiry (ms) from the claims', () => {
    expect(readSessionToken(jwt({ userId: 'u1', role: 'admin', exp: 100 }))).toEqual({
      userId: 'u1',
      role: 'admin',
      expiresAt: 100_000,
    });
  });
  it('an unknown role reads as unknown; unreadable tokens give null', () => {
    expect(readSessionToken(jwt({ userId: 'u1', role: 'emperor', exp: 1 }))?.role).toBe('unknown');
    expect(readSessionToken('garbage')).toBeNull();
    expect(readSessionToken(jwt({ role: 'admin', exp: 1 }))).toBeNull();
  });
});

describe('login redirect', () => {
  it('restores the remembered path, but a saved login page goes Home', () => {
    expect(afterLoginTarget('/settings/security')).toBe('/settings/security');
    expect(afterLoginTarget('/profile/collection?tab=1')).toBe('/profile/collection?tab=1');
    expect(afterLoginTarget('/auth/login')).toBe('/');
    expect(afterLoginTarget('/auth')).toBe('/');
    expect(afterLoginTarget(null)).toBe('/');
  });
  it('dashboard and create-storefront paths hide the shell', () => {
    expect(isChromelessPath('/dashboard/sales')).toBe(true);
    expect(isChromelessPath('/create-storefront')).toBe(true);
    expect(isChromelessPath('/dashboards')).toBe(false);
    expect(isChromelessPath('/settings')).toBe(false);
  });
});

describe('generated usernames', () => {
  it('letters of the seed, an underscore and a 6-letter random suffix, valid at sign-up', () => {
    const name = generatedUsername('José.Ñ-99@example.com', 'qwerty');
    expect(name).toBe('jos_qwerty');
    expect(v.safeParse(SignupUsername, name).success).toBe(true);
    expect(generatedUsername('1234', 'abcdef')).toBe('collector_abcdef');
    const random = randomLetters(6, (n) => new Uint8Array(n).fill(27));
    expect(random).toBe('bbbbbb');
    const password = generatedPassword((n) => crypto.getRandomValues(new Uint8Array(n)));
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
  });
});

describe('inspector redaction', () => {
  it('hides passwords, tokens, card and KYC data at any depth, keeps the rest', () => {
    const out = redact({
      type: 'auth.signup.submit',
      password: 'hunter22',
      confirm: 'hunter22',
      email: 'ada@example.com',
      nested: { authToken: 'ey…', card: { number: '4242' }, kyc: { status: 'approved' }, cvv: '123' },
      list: [{ resetToken: 't' }],
    });
    expect(out).toEqual({
      type: 'auth.signup.submit',
      password: REDACTED,
      confirm: REDACTED,
      email: 'ada@example.com',
      nested: { authToken: REDACTED, card: REDACTED, kyc: REDACTED, cvv: REDACTED },
      list: [{ resetToken: REDACTED }],
    });
  });
});

describe('error display rule', () => {
  it('errors.{code}.{field}, then errors.{code}, then the server message, else errors.default', () => {
    expect(errorMessage({ code: 'INVALID_VALUE', field: 'password' })).toBe(
      'Password must be at least 8 Characters',
    );
    expect(errorMessage({ code: 'PASSWORD_MISMATCH', field: 'confirm' })).toBe("Passwords don't match.");
    expect(errorMessage({ code: 'SOMETHING_NEW', message: 'From the server' })).toBe('From the server');
    expect(errorMessage({ code: 'SOMETHING_NEW' })).toBe('Something went wrong. Please try again.');
    // A refused claim carries the server's reason; without one the code's text stands.
    expect(errorMessage({ code: 'CLAIM_BLUEPRINT', message: 'You have already claimed this item.' })).toBe(
      'You have already claimed this item.',
    );
    expect(errorMessage({ code: 'CLAIM_BLUEPRINT', message: '' })).toBe(
      'We could not claim this item for you.',
    );
    expect(errorMessage({ code: 'UNAUTHORIZED' })).toBe('Invalid email or password');
  });
});
