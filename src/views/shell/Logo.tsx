/** The Vitrine wordmark. */
export function Logo() {
  return (
    <span className="vt-logo">
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <rect x="2" y="2" width="28" height="28" rx="8" fill="var(--color-primary)" />
        <path
          d="M9 10l7 13 7-13"
          fill="none"
          stroke="#fff"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="vt-logo__text">Vitrine</span>
    </span>
  );
}
