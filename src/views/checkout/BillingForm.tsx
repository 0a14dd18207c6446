import { type ChangeEvent, type ReactNode, useId } from 'react';
import type { BillingFormValues, BillingFormView } from '#domain/billing';
import { TextInput } from '../components';
import { cx } from '../components/cx';
import './card.css';

type TextField = Exclude<keyof BillingFormValues, 'save'>;

export interface BillingFormProps {
  /** What the view model shows: values, errors, countries, states and the phone's calling code. */
  form: BillingFormView;
  onChange: (values: Partial<BillingFormValues>) => void;
  disabled?: boolean;
  /** Offer "Save this card" (the checkout); the saved-cards page always saves. */
  withSave?: boolean;
  /** The card's fields: off when a wallet holds the card (Google Pay billing). */
  withCard?: boolean;
  /** The phone number: off when a wallet gives it (Google Pay billing). */
  withPhone?: boolean;
}

/** A labelled select with its error, styled like the text fields. */
function SelectField({
  label,
  name,
  value,
  options,
  error,
  autoComplete,
  disabled,
  placeholder,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  error?: string;
  autoComplete: string;
  disabled?: boolean;
  placeholder?: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="vt-field">
      <label htmlFor={id} className="vt-field__label">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className={cx('vt-select', 'vt-billing__select', error && 'vt-billing__select--invalid')}
        value={value}
        autoComplete={autoComplete}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="vt-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The props a text field of the form spreads: its name, value, error and change. */
type BindText = (field: TextField) => {
  name: TextField;
  value: string;
  disabled: boolean;
  error: string | undefined;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
};

/** A titled group of fields, disabled as one. */
function BillingGroup({
  title,
  disabled,
  children,
}: {
  title: string;
  disabled: boolean;
  children: ReactNode;
}) {
  return (
    <fieldset className="vt-billing__group" disabled={disabled}>
      <legend className="vt-billing__legend">{title}</legend>
      {children}
    </fieldset>
  );
}

/** The card: number (with its brand), expiry month and year (one error for both), security code. */
function CardFields({ form, text }: { form: BillingFormView; text: BindText }) {
  const { errors } = form;
  const expiryId = useId();
  return (
    <>
      <TextInput
        label="Card number"
        autoComplete="cc-number"
        inputMode="numeric"
        hint={form.brand ?? 'Visa, Mastercard or Discover'}
        {...text('cardNumber')}
      />
      <div className="vt-billing__row">
        <fieldset
          className="vt-field vt-billing__expiry-group"
          aria-describedby={errors.expiry ? expiryId : undefined}
        >
          <legend className="vt-field__label">Expiry (MM / YY)</legend>
          <div className="vt-billing__expiry">
            <TextInput
              label="Expiry month"
              hideLabel
              placeholder="MM"
              autoComplete="cc-exp-month"
              inputMode="numeric"
              maxLength={2}
              {...text('expiryMonth')}
            />
            <span aria-hidden="true">/</span>
            <TextInput
              label="Expiry year"
              hideLabel
              placeholder="YY"
              autoComplete="cc-exp-year"
              inputMode="numeric"
              maxLength={4}
              {...text('expiryYear')}
            />
          </div>
          {errors.expiry ? (
            <p id={expiryId} className="vt-field__error" role="alert">
              {errors.expiry}
            </p>
          ) : null}
        </fieldset>
        <TextInput
          label="Security code (CVV)"
          autoComplete="cc-csc"
          inputMode="numeric"
          maxLength={4}
          {...text('cvv')}
        />
      </div>
    </>
  );
}

/**
 * The billing address: names, address lines, city, country, the state (from a list in the US and
 * Canada), the postal code and, unless a wallet gives it, the phone.
 */
function AddressFields({
  form,
  text,
  onChange,
  disabled,
  withPhone,
}: Pick<BillingFormProps, 'form' | 'onChange'> & { text: BindText; disabled: boolean; withPhone: boolean }) {
  const { values, errors } = form;
  return (
    <>
      <div className="vt-billing__row">
        <TextInput label="First name" autoComplete="given-name" {...text('firstName')} />
        <TextInput label="Last name (optional)" autoComplete="family-name" {...text('lastName')} />
      </div>
      <TextInput label="Address line 1" autoComplete="address-line1" {...text('addressLine1')} />
      <TextInput label="Address line 2 (optional)" autoComplete="address-line2" {...text('addressLine2')} />
      <div className="vt-billing__row">
        <TextInput label="City" autoComplete="address-level2" {...text('city')} />
        <SelectField
          label="Country"
          name="country"
          value={values.country}
          options={form.countries}
          error={errors.country}
          autoComplete="country"
          disabled={disabled}
          onChange={(country) => onChange({ country })}
        />
      </div>
      <div className="vt-billing__row">
        {form.regions ? (
          <SelectField
            label={values.country === 'CA' ? 'Province' : 'State'}
            name="state"
            value={values.state}
            options={form.regions}
            error={errors.state}
            autoComplete="address-level1"
            disabled={disabled}
            placeholder="Choose…"
            onChange={(state) => onChange({ state })}
          />
        ) : (
          <TextInput label="State or region" autoComplete="address-level1" {...text('state')} />
        )}
        <TextInput
          label={values.country === 'US' ? 'ZIP code' : 'Postal code'}
          autoComplete="postal-code"
          {...text('zipCode')}
        />
      </div>
      {withPhone && (
        <TextInput
          label="Phone number"
          type="tel"
          autoComplete="tel-national"
          startAdornment={form.dialCode}
          {...text('phone')}
        />
      )}
    </>
  );
}

/**
 * The billing details and card of a new card, controlled by a view model (connectCardPayment,
 * connectSavedCards, connectWalletPayment without the card). The phone's calling code is the
 * country's; US and Canadian addresses choose their state from a list.
 */
export function BillingForm({
  form,
  onChange,
  disabled = false,
  withSave = false,
  withCard = true,
  withPhone = true,
}: BillingFormProps) {
  const { values, errors } = form;
  const text: BindText = (field) => ({
    name: field,
    value: values[field],
    disabled,
    error: errors[field],
    onChange: (e) => onChange({ [field]: e.target.value }),
  });
  return (
    <div className="vt-billing">
      {withCard && (
        <BillingGroup title="Card" disabled={disabled}>
          <CardFields form={form} text={text} />
        </BillingGroup>
      )}
      <BillingGroup title="Billing address" disabled={disabled}>
        <AddressFields
          form={form}
          text={text}
          onChange={onChange}
          disabled={disabled}
          withPhone={withPhone}
        />
      </BillingGroup>
      {withSave && (
        <label className="vt-check">
          <input
            type="checkbox"
            name="save"
            checked={values.save}
            disabled={disabled}
            onChange={(e) => onChange({ save: e.target.checked })}
          />
          <span>Save this card for later purchases</span>
        </label>
      )}
    </div>
  );
}
