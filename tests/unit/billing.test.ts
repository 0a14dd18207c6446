import { getCountryCallingCode } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import {
  type BillingDetails,
  billingDetails,
  billingFormView,
  canadianProvinces,
  cardBrand,
  changeBillingForm,
  countries,
  emptyBillingForm,
  errorsAfterChange,
  maskedCard,
  parseExpiry,
  regionsOf,
  usStates,
  validateBilling,
  validateBillingForm,
  validateCard,
  validateCvv,
} from '#domain/billing';

const NOW = new Date(2026, 10, 22, 12, 0, 0);

const US: BillingDetails = {
  firstName: 'Grace',
  lastName: 'Hopper',
  addressLine1: '1 Main St',
  addressLine2: undefined,
  city: 'New York',
  state: 'NY',
  country: 'US',
  zipCode: '10001',
  phoneNumber: { countryCode: '1', number: '212 555 0123' },
};
const codes = (errors: Record<string, { code: string } | undefined>) =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v?.code]));

describe('billing countries and states', () => {
  it('lists 27 countries with their calling codes, the US, Canada and the UK among them', () => {
    expect(countries).toHaveLength(27);
    expect(new Set(countries.map((c) => c.code)).size).toBe(27);
    for (const code of ['US', 'CA', 'GB']) expect(countries.some((c) => c.code === code)).toBe(true);
    for (const c of countries) expect(c.dialCode, c.code).toBe(getCountryCallingCode(c.code as never));
  });

  it('has the 50 US states and DC, and the 13 Canadian provinces and territories', () => {
    expect(usStates).toHaveLength(51);
    expect(canadianProvinces).toHaveLength(13);
    expect(regionsOf('US')).toBe(usStates);
    expect(regionsOf('CA')).toBe(canadianProvinces);
    expect(regionsOf('GB')).toBeNull();
  });

  it('accepts a complete US address', () => {
    expect(validateBilling(US)).toEqual({});
  });

  it('requires a US or Canadian state from the list, free text elsewhere', () => {
    expect(codes(validateBilling({ ...US, state: 'New York' }))).toEqual({ state: 'INVALID_VALUE' });
    expect(codes(validateBilling({ ...US, state: 'ON' }))).toEqual({ state: 'INVALID_VALUE' });
    expect(
      validateBilling({
        ...US,
        country: 'CA',
        state: 'ON',
        zipCode: 'M5V 2T6',
        phoneNumber: { countryCode: '1', number: '416 555 0199' },
      }),
    ).toEqual({});
    const gb = {
      ...US,
      country: 'GB',
      state: 'Greater London',
      zipCode: 'SW1A 1AA',
      phoneNumber: { countryCode: '44', number: '020 7946 0958' },
    };
    expect(validateBilling(gb)).toEqual({});
    expect(validateBilling({ ...gb, state: '' }).state).toMatchObject({
      code: 'INVALID_VALUE',
      message: 'Please enter a state or region.',
    });
  });

  it('requires first name, address, city, zip and a country of the list; last name and line 2 are optional', () => {
    const errors = validateBilling({
      ...US,
      firstName: ' ',
      addressLine1: '',
      city: '',
      zipCode: '',
      lastName: '',
    });
    expect(codes(errors)).toEqual({
      firstName: 'FIRSTNAME_MISSING',
      addressLine1: 'INVALID_VALUE',
      city: 'INVALID_VALUE',
      zipCode: 'INVALID_VALUE',
    });
    expect(errors.firstName!.message).toBe('Please enter a first name');
    expect(errors.city!.message).toBe('Please enter a city.');
    expect(codes(validateBilling({ ...US, country: 'RU' }))).toMatchObject({ country: 'INVALID_VALUE' });
    expect(codes(validateBilling({ ...US, zipCode: '1000' }))).toEqual({ zipCode: 'INVALID_VALUE' });
    expect(validateBilling({ ...US, zipCode: '10001-1234' })).toEqual({});
    expect(codes(validateBilling({ ...US, lastName: 'x'.repeat(101) }))).toEqual({
      lastName: 'INVALID_VALUE',
    });
  });
});

describe('billing phone numbers', () => {
  const phone = (country: string, countryCode: string, number: string) =>
    validateBilling({
      ...US,
      country,
      state: country === 'US' ? 'NY' : country === 'CA' ? 'ON' : 'Region',
      zipCode: country === 'US' ? '10001' : country === 'CA' ? 'M5V 2T6' : '12345',
      phoneNumber: { countryCode, number },
    }).phoneNumber?.code ?? null;

  it('needs at least 6 digits', () => {
    expect(phone('US', '1', '12345')).toBe('PHONE_SHORT');
    expect(phone('US', '1', '(12) 3-45')).toBe('PHONE_SHORT');
    expect(phone('US', '1', '')).toBe('INVALID_VALUE');
  });

  it('is valid for the country, with the country’s calling code', () => {
    expect(phone('US', '1', '212-555-0123')).toBeNull();
    expect(phone('US', '1', '555 555 5555')).toBe('PHONE_COUNTRY');
    expect(phone('US', '1', '416 555 0199')).toBe('PHONE_COUNTRY'); // a Toronto number
    expect(phone('CA', '1', '416 555 0199')).toBeNull();
    expect(phone('GB', '44', '07400 123456')).toBeNull();
    expect(phone('GB', '1', '07400 123456')).toBe('PHONE_COUNTRY');
    expect(phone('GB', '44', '123456')).toBe('PHONE_COUNTRY');
    expect(phone('DE', '49', '030 123456')).toBeNull();
    expect(phone('FR', '33', '06 12 34 56 78')).toBeNull();
    expect(phone('JP', '81', '90-1234-5678')).toBeNull();
    expect(phone('AU', '61', '0412 345 678')).toBeNull();
    expect(phone('AU', '61', '0412 345')).toBe('PHONE_COUNTRY');
  });
});

describe('cards', () => {
  const card = (
    number: string,
    over: Partial<{ expiryMonth: string; expiryYear: string; cvv: string }> = {},
  ) => codes(validateCard({ number, expiryMonth: '12', expiryYear: '30', cvv: '123', ...over }, NOW));

  it('takes Visa, Mastercard and Discover and refuses American Express and others', () => {
    expect(card('4242 4242 4242 4242')).toEqual({});
    expect(card('5436031030606378')).toEqual({});
    expect(card('6011-1111-1111-1117')).toEqual({});
    expect(card('3782 822463 10005')).toEqual({ cardNumber: 'CARD_TYPE', cvv: 'CARD_CVV' });
    expect(card('3782 822463 10005', { cvv: '1234' })).toEqual({ cardNumber: 'CARD_TYPE' });
    expect(card('3530111333300000')).toEqual({ cardNumber: 'CARD_TYPE' }); // JCB
    expect(cardBrand('4242')).toBe('VISA');
    expect(cardBrand('378282246310005')).toBe('AMEX');
    expect(cardBrand('')).toBeNull();
  });

  it('checks the number’s length and Luhn digit', () => {
    expect(card('4242 4242 4242 4241')).toEqual({ cardNumber: 'INVALID_VALUE' });
    expect(card('4242')).toEqual({ cardNumber: 'INVALID_VALUE' });
    expect(card('')).toEqual({ cardNumber: 'INVALID_VALUE' });
    expect(card('4242 4242 4242 424x')).toEqual({ cardNumber: 'INVALID_VALUE' });
    expect(
      validateCard({ number: '', expiryMonth: '1', expiryYear: '30', cvv: '123' }, NOW).cardNumber!.message,
    ).toBe('Please double check the card number.');
  });

  it('refuses an expired card and reads MM / YY or MM / YYYY', () => {
    expect(card('4242424242424242', { expiryMonth: '10', expiryYear: '26' })).toEqual({
      expiry: 'CARD_EXPIRED',
    });
    expect(card('4242424242424242', { expiryMonth: '11', expiryYear: '26' })).toEqual({});
    expect(card('4242424242424242', { expiryMonth: '1', expiryYear: '2027' })).toEqual({});
    expect(card('4242424242424242', { expiryMonth: '12', expiryYear: '2025' })).toEqual({
      expiry: 'CARD_EXPIRED',
    });
    expect(card('4242424242424242', { expiryMonth: '13', expiryYear: '27' })).toEqual({
      expiry: 'INVALID_VALUE',
    });
    expect(card('4242424242424242', { expiryMonth: '', expiryYear: '' })).toEqual({
      expiry: 'INVALID_VALUE',
    });
    expect(card('4242424242424242', { expiryMonth: '01', expiryYear: '2060' })).toEqual({
      expiry: 'INVALID_VALUE',
    });
    expect(parseExpiry('04', '30')).toEqual({ month: 4, year: 2030 });
    expect(parseExpiry('4', '203')).toBeNull();
  });

  it('needs a 3-digit security code (4 for AMEX)', () => {
    expect(card('4242424242424242', { cvv: '12' })).toEqual({ cvv: 'CARD_CVV' });
    expect(card('4242424242424242', { cvv: '1234' })).toEqual({ cvv: 'CARD_CVV' });
    expect(card('4242424242424242', { cvv: '12a' })).toEqual({ cvv: 'CARD_CVV' });
    expect(validateCvv('123', 'VISA')).toBeNull();
    expect(validateCvv('1234', 'AMEX')).toBeNull();
    expect(validateCvv('123', 'AMEX')).toMatchObject({ code: 'CARD_CVV', field: 'cvv' });
  });

  it('masks saved cards to their last four digits', () => {
    expect(maskedCard('VISA', '4242')).toBe('Visa •••• 4242');
    expect(maskedCard('MASTERCARD', '6378')).toBe('Mastercard •••• 6378');
    expect(maskedCard(null, '1117')).toBe('Card •••• 1117');
  });
});

describe('the billing form', () => {
  const filled = {
    ...emptyBillingForm,
    firstName: 'Grace',
    addressLine1: '1 Main St',
    city: 'New York',
    state: 'NY',
    zipCode: '10001',
    phone: '212 555 0123',
    cardNumber: '4242 4242 4242 4242',
    expiryMonth: '12',
    expiryYear: '30',
    cvv: '123',
  };

  it('checks billing details and card together, the phone under its own field', () => {
    expect(validateBillingForm(filled, NOW)).toEqual({});
    expect(codes(validateBillingForm(emptyBillingForm, NOW))).toEqual({
      firstName: 'FIRSTNAME_MISSING',
      addressLine1: 'INVALID_VALUE',
      city: 'INVALID_VALUE',
      state: 'INVALID_VALUE',
      zipCode: 'INVALID_VALUE',
      phone: 'INVALID_VALUE',
      cardNumber: 'INVALID_VALUE',
      expiry: 'INVALID_VALUE',
      cvv: 'CARD_CVV',
    });
  });

  it('gives the phone the country’s calling code and leaves out empty optional fields', () => {
    expect(billingDetails({ ...filled, country: 'GB', state: 'London' })).toEqual({
      firstName: 'Grace',
      lastName: undefined,
      addressLine1: '1 Main St',
      addressLine2: undefined,
      city: 'New York',
      state: 'London',
      country: 'GB',
      zipCode: '10001',
      phoneNumber: { countryCode: '44', number: '212 555 0123' },
    });
  });

  it('empties the state when the country changes, and clears the errors of what changed', () => {
    expect(changeBillingForm(filled, { country: 'CA' }).state).toBe('');
    expect(changeBillingForm(filled, { country: 'CA', state: 'ON' }).state).toBe('ON');
    expect(changeBillingForm(filled, { country: 'US' }).state).toBe('NY');
    const errors = { state: 1, phone: 2, city: 3, expiry: 4, cvv: 5 };
    expect(errorsAfterChange(errors, filled, { country: 'CA' })).toEqual({ city: 3, expiry: 4, cvv: 5 });
    expect(errorsAfterChange(errors, filled, { expiryYear: '31' })).toEqual({
      state: 1,
      phone: 2,
      city: 3,
      cvv: 5,
    });
    expect(errorsAfterChange(errors, filled, { city: 'New York' })).toEqual(errors);
  });

  it('shows states as a list for the US and Canada and the calling code of the country', () => {
    const us = billingFormView(filled, {});
    expect(us.regions).toHaveLength(51);
    expect(us.dialCode).toBe('+1');
    expect(us.brand).toBe('Visa');
    expect(us.countries[2]).toEqual({ value: 'GB', label: 'United Kingdom (+44)' });
    const gb = billingFormView({ ...filled, country: 'GB', cardNumber: '' }, {});
    expect(gb.regions).toBeNull();
    expect(gb.dialCode).toBe('+44');
    expect(gb.brand).toBeNull();
  });
});
