import cardValidator from 'card-validator';

/**
 * The sandbox's test cards and outcomes. Any card with a valid check digit tokenizes; what a
 * payment with it does depends on the number, the CVV and the amount:
 *
 * | Card                | Brand      | Outcome                              |
 * | 4242 4242 4242 4242 | VISA       | approved, no 3-D Secure              |
 * | 4485 0403 7153 6584 | VISA       | 3-D Secure challenge when requested  |
 * | 5436 0310 3060 6378 | MASTERCARD | approved                             |
 * | 6011 1111 1111 1117 | DISCOVER   | approved                             |
 * | 4544 2491 6767 3670 | VISA       | declined 20005 Do Not Honour         |
 * | 4095 2548 0264 2505 | VISA       | declined 20051 Insufficient Funds    |
 * | 3782 822463 10005   | AMEX       | approved by the sandbox (Vitrine refuses the brand) |
 *
 * CVV 100 declines with 20087 (Bad Track Data, the CVV check). Amounts ending in 05, 51 or 54
 * cents decline with 20005, 20051 or 20054: Checkout.com's previous platform simulates response
 * codes by amount the same way.
 */

export const THREE_DS_CARD = '4485040371536584';

/** The test cards by what they do (for tests and the wallet stand-ins: sandbox/checkout-com/wallets.ts). */
export const TEST_CARDS = {
  visa: '4242424242424242',
  threeDs: THREE_DS_CARD,
  mastercard: '5436031030606378',
  discover: '6011111111111117',
  declined: '4544249167673670',
  insufficientFunds: '4095254802642505',
  amex: '378282246310005',
} as const;

const declinedCards: Record<string, Decline> = {
  '4544249167673670': { code: '20005', summary: 'Declined - Do Not Honour' },
  '4095254802642505': { code: '20051', summary: 'Insufficient Funds' },
};
const declinedAmounts: Record<number, Decline> = {
  5: { code: '20005', summary: 'Declined - Do Not Honour' },
  51: { code: '20051', summary: 'Insufficient Funds' },
  54: { code: '20054', summary: 'Expired Card' },
};

export interface Decline {
  code: string;
  summary: string;
}

export interface Card {
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string | null;
  name: string | null;
  scheme: string;
  bin: string;
  last4: string;
}

const schemes: Record<string, string> = {
  visa: 'VISA',
  mastercard: 'MASTERCARD',
  discover: 'DISCOVER',
  'american-express': 'AMEX',
};

/** Checks a card as POST /tokens does: the error codes of a 422, or the card. */
export function readCard(raw: Record<string, unknown>, now: Date): { card: Card } | { errors: string[] } {
  const number = typeof raw.number === 'string' ? raw.number.replace(/[\s-]/g, '') : '';
  const month = Number(raw.expiry_month);
  const year = Number(raw.expiry_year);
  const cvv = typeof raw.cvv === 'string' ? raw.cvv : null;
  const errors: string[] = [];
  const check = cardValidator.number(number);
  if (!/^\d{12,19}$/.test(number) || !check.isValid) errors.push('card_number_invalid');
  if (!Number.isInteger(month) || month < 1 || month > 12) errors.push('card_expiry_month_invalid');
  if (!Number.isInteger(year) || year < 2000 || year > 2100) errors.push('card_expiry_year_invalid');
  else if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
    errors.push('card_expired');
  if (cvv !== null && !/^\d{3,4}$/.test(cvv)) errors.push('cvv_invalid');
  if (errors.length) return { errors };
  return {
    card: {
      number,
      expiryMonth: month,
      expiryYear: year,
      cvv,
      name: typeof raw.name === 'string' ? raw.name : null,
      scheme: schemes[check.card?.type ?? ''] ?? 'UNKNOWN',
      bin: number.slice(0, 6),
      last4: number.slice(-4),
    },
  };
}

/** Why a payment of `amount` cents with the card (and the CVV typed) is declined, if it is. */
export function declineOf(card: Card, cvv: string | null, amount: number): Decline | null {
  if (cvv === '100') return { code: '20087', summary: 'Bad Track Data' };
  const byCard = declinedCards[card.number];
  if (byCard) return byCard;
  if (amount > 0) return declinedAmounts[amount % 100] ?? null;
  return null;
}
