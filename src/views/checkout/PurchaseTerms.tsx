import { Link } from '@tanstack/react-router';

/** The acknowledgement every payment rail asks for before Pay: the purchase agreement and the terms. */
export function PurchaseTerms({
  className,
  checked,
  disabled,
  onChange,
}: {
  className: string;
  checked: boolean;
  disabled: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <label className={`vt-check ${className}`}>
      <input
        type="checkbox"
        name="acknowledge"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>
        I agree to the purchase agreement and the <Link to="/terms">Terms of Service</Link>.
      </span>
    </label>
  );
}
