import cardValidator from 'card-validator';
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import * as v from 'valibot';
import { type ApiErrorBody, ErrorCode, errorMessage } from './errors';
import { type Country, countries, countryByCode, regionsOf } from './regions';
import { BillingFields, type CreateBillingInfoBody } from './schemas/checkout';
import { issueToError } from './validation';

/**
 * Billing rules that the checkout form, the saved-cards form and the server (POST billing-info and
 * POST checkout-com-charges) all apply: the countries cards are taken from, US states and Canadian
 * provinces, the phone number, and the card itself (brand, number, expiry, security code).
 *
 * Every rule answers an error body per field: `{ code, field, message }` with the message to show.
 */

export * from './regions';

/** The billing details of a card as POST billing-info and POST checkout-com-charges take them. */
export type BillingDetails = Omit<CreateBillingInfoBody, 'cardToken'>;
export type BillingField = keyof BillingDetails;
export const billingFields: readonly BillingField[] = [
  'firstName',
  'lastName',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'country',
  'zipCode',
  'phoneNumber',
];

/** The least number of digits a phone number has. */
export const PHONE_MIN_DIGITS = 6;

const body = (code: string, field: string, message?: string): ApiErrorBody => ({
  code,
  field,
  message: message ?? errorMessage({ code, field }),
});

/** Texts of invalid fields whose shared text (errors.ts) speaks of another form or of a missing value. */
const invalidTexts: Partial<Record<BillingField, string>> = {
  firstName: 'Please enter a valid first name.',
  lastName: 'Please enter a valid last name.',
  addressLine2: 'Please enter a valid address.',
};
const digitsOf = (text: string) => text.replace(/\D/g, '');

/** US ZIP codes (12345 or 12345-6789) and Canadian postal codes (A1A 1A1). */
const postalCodes: Record<string, RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  CA: /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/,
};

/**
 * Every billing field's error, none for a valid field:
 * - first name, address line 1, city, zip code and state are required (trimmed, at most 100/200/20
 *   characters); last name and address line 2 are optional;
 * - the country is one of the 27 `countries`;
 * - the state of a US or Canadian address is one of its `usStates` / `canadianProvinces` codes;
 * - a US zip is 12345 or 12345-6789, a Canadian postal code A1A 1A1;
 * - the phone number has at least 6 digits (PHONE_SHORT), its calling code is the country's and it
 *   is a valid number of that country (PHONE_COUNTRY).
 */
export function validateBilling(
  fields: Partial<Record<BillingField, unknown>>,
): Partial<Record<BillingField, ApiErrorBody>> {
  const errors: Partial<Record<BillingField, ApiErrorBody>> = {};
  for (const field of billingFields) {
    if (field === 'phoneNumber') continue;
    const result = v.safeParse(BillingFields[field], fields[field]);
    if (!result.success) {
      const [code = ErrorCode.INVALID_VALUE] = result.issues[0].message.split('.');
      const missing = typeof fields[field] !== 'string' || !(fields[field] as string).trim();
      // A text over its length says its limit ("Address must be at most 200 characters.").
      const tooLong = issueToError({ ...result.issues[0], path: [{ key: field }] } as never);
      errors[field] =
        field === 'firstName' && missing
          ? body(ErrorCode.FIRSTNAME_MISSING, field)
          : !missing && tooLong.params
            ? tooLong
            : body(code, field, missing ? undefined : invalidTexts[field]);
    }
  }
  const country = typeof fields.country === 'string' ? countryByCode(fields.country) : undefined;
  if (!errors.country && !country) errors.country = body(ErrorCode.INVALID_VALUE, 'country');
  const state = typeof fields.state === 'string' ? fields.state.trim() : '';
  const regions = country ? regionsOf(country.code) : null;
  if (regions && !regions.some((r) => r.code === state))
    errors.state = body(ErrorCode.INVALID_VALUE, 'state');
  else if (errors.state)
    errors.state = body(ErrorCode.INVALID_VALUE, 'state', 'Please enter a state or region.');
  const zip = typeof fields.zipCode === 'string' ? fields.zipCode.trim() : '';
  const zipRule = country ? postalCodes[country.code] : undefined;
  if (!errors.zipCode && zipRule && !zipRule.test(zip))
    errors.zipCode = body(ErrorCode.INVALID_VALUE, 'zipCode');
  const phone = phoneError(fields.phoneNumber, country);
  if (phone) errors.phoneNumber = phone;
  return errors;
}

function phoneError(value: unknown, country: Country | undefined): ApiErrorBody | null {
  const shape = v.safeParse(BillingFields.phoneNumber, value);
  const number = (value as { number?: unknown } | null)?.number;
  if (typeof number !== 'string' || !number.trim()) return body(ErrorCode.INVALID_VALUE, 'phoneNumber');
  if (digitsOf(number).length < PHONE_MIN_DIGITS) return body(ErrorCode.PHONE_SHORT, 'phoneNumber');
  if (!shape.success) return body(ErrorCode.INVALID_VALUE, 'phoneNumber');
  // Without a country there is nothing the number could match; the country field says so.
  if (!country) return null;
  const parsed = parsePhoneNumberFromString(digitsOf(shape.output.number), country.code as CountryCode);
  const matches =
    shape.output.countryCode === country.dialCode && !!parsed?.isValid() && parsed.country === country.code;
  return matches ? null : body(ErrorCode.PHONE_COUNTRY, 'phoneNumber');
}

/* ---- The billing contact of an Apple Pay or Google Pay payment ---- */

/**
 * What a mobile wallet shared, as our billing fields: Apple's `billingContact` with the phone of its
 * `shippingContact`, or Google's `billingAddress` (its phone included).
 */
export interface WalletContact {
  addressLine1?: string;
  city?: string;
  state?: string;
  zipCode?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  /** As the wallet gives it: "+1 703-555-0100", or written the national way. */
  phoneNumber?: string;
}
export type WalletContactField = keyof WalletContact;

const filled = (text: string | undefined): text is string => typeof text === 'string' && text.trim() !== '';

/**
 * The country calling code of a phone number as a wallet gives it ("1" for "+1 703 555 0100"): an
 * international number names it; a number written the national way ("(703) 555-0100") takes the
 * contact country's. Null when none can be told: no number, an unknown calling code, or too few or
 * too many digits for a number of that country.
 */
export function phoneCallingCode(phone: string | undefined, country: string | undefined): string | null {
  if (!filled(phone)) return null;
  const region = filled(country) && /^[A-Za-z]{2}$/.test(country.trim()) ? country.trim().toUpperCase() : '';
  const parsed = parsePhoneNumberFromString(phone.trim(), (region || undefined) as CountryCode | undefined);
  return parsed?.isPossible() ? parsed.countryCallingCode : null;
}

/**
 * The first field a wallet's billing contact lacks (APPLE_PAY_ADDRESS names it), or null when it is
 * complete:
 * - Apple Pay: the phone number with a country calling code that can be told (phoneCallingCode),
 *   address line 1, postal code, city, state and country, all of them, whatever the country;
 * - Google Pay: address line 1, city, postal code and country (its billing panel asks for the rest).
 * Either way the country must be one we take cards from (`countries`).
 */
export function walletContactGap(
  wallet: 'applepay' | 'googlepay',
  contact: WalletContact,
): WalletContactField | null {
  const address: WalletContactField[] =
    wallet === 'applepay'
      ? ['addressLine1', 'zipCode', 'city', 'state', 'country']
      : ['addressLine1', 'city', 'zipCode', 'country'];
  if (wallet === 'applepay' && !phoneCallingCode(contact.phoneNumber, contact.country)) return 'phoneNumber';
  const missing = address.find((field) => !filled(contact[field]));
  if (missing) return missing;
  return countryByCode(contact.country!.trim().toUpperCase()) ? null : 'country';
}

/** Card brands (schemes) as the card provider names them. */
export type CardBrand = 'VISA' | 'MASTERCARD' | 'DISCOVER' | 'AMEX' | 'OTHER';
/** The brands a card may be of. */
export const acceptedBrands: readonly CardBrand[] = ['VISA', 'MASTERCARD', 'DISCOVER'];
const brandNames: Record<string, CardBrand> = {
  visa: 'VISA',
  mastercard: 'MASTERCARD',
  discover: 'DISCOVER',
  'american-express': 'AMEX',
};
/** How a brand reads on screen ("Visa •••• 4242"). */
export const brandLabels: Record<string, string> = {
  VISA: 'Visa',
  MASTERCARD: 'Mastercard',
  DISCOVER: 'Discover',
  AMEX: 'American Express',
};

/** The brand a card number belongs to, null while the digits do not tell yet. */
export function cardBrand(number: string): CardBrand | null {
  const card = cardValidator.number(digitsOf(number)).card;
  if (!card) return null;
  return brandNames[card.type] ?? 'OTHER';
}

export interface CardDetails {
  number: string;
  /** 1 to 12, as typed ("4", "04"). */
  expiryMonth: string;
  /** Two or four digits ("30", "2030"). */
  expiryYear: string;
  cvv: string;
}
export type CardField = 'cardNumber' | 'expiry' | 'cvv';

/** A card's expiry as numbers (four-digit year), or null when it does not read as a month and year. */
export function parseExpiry(month: string, year: string): { month: number; year: number } | null {
  if (!/^\d{1,2}$/.test(month.trim()) || !/^(\d{2}|\d{4})$/.test(year.trim())) return null;
  const m = Number(month);
  const y = year.trim().length === 2 ? 2000 + Number(year) : Number(year);
  if (m < 1 || m > 12) return null;
  return { month: m, year: y };
}

/** Cards are not issued for longer than this many years. */
const EXPIRY_MAX_YEARS = 20;

/**
 * Every card field's error, none for a valid field:
 * - the number is a VISA, MASTERCARD or DISCOVER number (CARD_TYPE; AMEX and any other brand are
 *   refused) that passes its brand's length and Luhn check (INVALID_VALUE.cardNumber);
 * - the expiry is a month and a year, not before the current month (CARD_EXPIRED) and at most 20
 *   years ahead;
 * - the security code is 3 digits (4 for AMEX) (CARD_CVV).
 */
export function validateCard(
  card: CardDetails,
  now: Date = new Date(),
): Partial<Record<CardField, ApiErrorBody>> {
  const errors: Partial<Record<CardField, ApiErrorBody>> = {};
  const digits = digitsOf(card.number);
  const checked = cardValidator.number(digits);
  const brand = cardBrand(digits);
  if (/[^\d\s-]/.test(card.number) || digits.length === 0) {
    errors.cardNumber = body(ErrorCode.INVALID_VALUE, 'cardNumber');
  } else if (brand && !acceptedBrands.includes(brand)) {
    errors.cardNumber = body(ErrorCode.CARD_TYPE, 'cardNumber');
  } else if (!checked.isValid) {
    errors.cardNumber = body(ErrorCode.INVALID_VALUE, 'cardNumber');
  }
  const expiry = parseExpiry(card.expiryMonth, card.expiryYear);
  const current = now.getFullYear() * 12 + now.getMonth();
  if (!expiry || expiry.year * 12 + expiry.month - 1 > current + EXPIRY_MAX_YEARS * 12) {
    errors.expiry = body(ErrorCode.INVALID_VALUE, 'expiry', 'Please enter the expiry date as MM / YY.');
  } else if (expiry.year * 12 + expiry.month - 1 < current) {
    errors.expiry = body(ErrorCode.CARD_EXPIRED, 'expiry');
  }
  const cvvError = validateCvv(card.cvv, brand);
  if (cvvError) errors.cvv = cvvError;
  return errors;
}

/** The security code of a card of `brand`: 4 digits for AMEX, else 3 (CARD_CVV). */
export function validateCvv(cvv: string, brand: string | null): ApiErrorBody | null {
  const size = brand === 'AMEX' ? 4 : 3;
  return /^\d+$/.test(cvv) && cardValidator.cvv(cvv, size).isValid ? null : body(ErrorCode.CARD_CVV, 'cvv');
}

/** What the billing form holds, as typed. */
export interface BillingFormValues {
  firstName: string;
  lastName: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  country: string;
  state: string;
  zipCode: string;
  /** The phone number without its calling code (the country's). */
  phone: string;
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  cvv: string;
  /** Keep the card for later purchases. */
  save: boolean;
}
export type BillingFormField = keyof BillingFormValues;

export const emptyBillingForm: BillingFormValues = {
  firstName: '',
  lastName: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  country: 'US',
  state: '',
  zipCode: '',
  phone: '',
  cardNumber: '',
  expiryMonth: '',
  expiryYear: '',
  cvv: '',
  save: false,
};

/**
 * The new-card form started from what is already known: the account's name and a remembered
 * country (kept only when cards are taken from it; otherwise the default, the US).
 */
export function prefilledBillingForm(known: {
  firstName?: string;
  lastName?: string | null;
  country?: string | null;
}): BillingFormValues {
  const country = known.country && countryByCode(known.country) ? known.country : emptyBillingForm.country;
  return {
    ...emptyBillingForm,
    firstName: known.firstName?.trim() ?? '',
    lastName: known.lastName?.trim() ?? '',
    country,
  };
}

/**
 * The form with `patch` applied. Choosing another country empties the state (the US and Canada
 * choose theirs from a list), unless the patch sets the state too.
 */
export function changeBillingForm(
  values: BillingFormValues,
  patch: Partial<BillingFormValues>,
): BillingFormValues {
  const next = { ...values, ...patch };
  if (patch.country !== undefined && patch.country !== values.country && patch.state === undefined)
    next.state = '';
  return next;
}

/**
 * The field errors left once `patch` is applied: a changed field's error goes, and so do the errors
 * judged together with it (the expiry with its month and year, the state, zip and phone with the
 * country, the security code with the card number).
 */
export function errorsAfterChange<E>(
  errors: Partial<Record<string, E>>,
  values: BillingFormValues,
  patch: Partial<BillingFormValues>,
): Partial<Record<string, E>> {
  const changed = (Object.keys(patch) as BillingFormField[]).filter((k) => patch[k] !== values[k]);
  const fields: string[] = [...changed];
  if (changed.includes('expiryMonth') || changed.includes('expiryYear')) fields.push('expiry');
  if (changed.includes('country')) fields.push('state', 'zipCode', 'phone');
  if (changed.includes('cardNumber')) fields.push('cvv');
  return Object.fromEntries(Object.entries(errors).filter(([k]) => !fields.includes(k))) as Partial<
    Record<string, E>
  >;
}

/** The billing details of the form, trimmed, the phone's calling code that of the country. */
export function billingDetails(values: BillingFormValues): BillingDetails {
  const optional = (text: string) => (text.trim() ? text.trim() : undefined);
  return {
    firstName: values.firstName.trim(),
    lastName: optional(values.lastName),
    addressLine1: values.addressLine1.trim(),
    addressLine2: optional(values.addressLine2),
    city: values.city.trim(),
    state: values.state.trim(),
    country: values.country,
    zipCode: values.zipCode.trim(),
    phoneNumber: {
      countryCode: countryByCode(values.country)?.dialCode ?? '',
      number: values.phone.trim(),
    },
  };
}

/** The card of the form. */
export const cardDetails = (values: BillingFormValues): CardDetails => ({
  number: digitsOf(values.cardNumber),
  expiryMonth: values.expiryMonth.trim(),
  expiryYear: values.expiryYear.trim(),
  cvv: values.cvv.trim(),
});

/** The form's errors keyed by its own fields (the phone's under `phone`). */
export function validateBillingForm(
  values: BillingFormValues,
  now: Date = new Date(),
): Partial<Record<BillingFormField | 'expiry', ApiErrorBody>> {
  const { phoneNumber, ...billing } = validateBilling(billingDetails(values));
  return {
    ...billing,
    ...(phoneNumber ? { phone: phoneNumber } : {}),
    ...validateCard(cardDetails(values), now),
  };
}

/** "Visa •••• 4242". */
export function maskedCard(scheme: string | null, lastFour: string): string {
  const brand = scheme ? (brandLabels[scheme.toUpperCase()] ?? scheme) : 'Card';
  return `${brand} •••• ${lastFour}`;
}

/** "Expires 04/2030", or null when unknown. */
export function cardExpiry(month: number | null, year: number | null): string | null {
  if (!month || !year) return null;
  return `Expires ${String(month).padStart(2, '0')}/${year}`;
}

/** What the billing form shows, as the view models hand it to BillingForm. */
export interface BillingFormView {
  values: BillingFormValues;
  /** Field → message. */
  errors: Partial<Record<BillingFormField | 'expiry', string>>;
  countries: readonly { value: string; label: string }[];
  /** The states to choose from; null when the state is typed. */
  regions: readonly { value: string; label: string }[] | null;
  /** "+1": the phone's calling code, the country's. */
  dialCode: string;
  /** The brand the card number reads as ("Visa"), once the digits tell. */
  brand: string | null;
}

const countryOptions = countries.map((c) => ({ value: c.code, label: `${c.name} (+${c.dialCode})` }));

export function billingFormView(
  values: BillingFormValues,
  errors: Partial<Record<string, ApiErrorBody>>,
): BillingFormView {
  const regions = regionsOf(values.country);
  const brand = cardBrand(values.cardNumber);
  return {
    values,
    errors: Object.fromEntries(
      Object.entries(errors).flatMap(([field, error]) => (error ? [[field, error.message]] : [])),
    ),
    countries: countryOptions,
    regions: regions ? regions.map((r) => ({ value: r.code, label: r.name })) : null,
    dialCode: `+${countryByCode(values.country)?.dialCode ?? ''}`,
    brand: brand ? (brandLabels[brand] ?? null) : null,
  };
}
