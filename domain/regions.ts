/**
 * Where cards and billing addresses are taken from: the accepted countries (with their calling
 * codes), and the states or provinces an address must name in the United States and Canada.
 */

export interface Country {
  /** ISO 3166-1 alpha-2. */
  code: string;
  name: string;
  /** The country calling code without "+". */
  dialCode: string;
}

/** The 27 countries whose cards and billing addresses are accepted, in the order the picker lists them. */
export const countries: readonly Country[] = [
  { code: 'US', name: 'United States', dialCode: '1' },
  { code: 'CA', name: 'Canada', dialCode: '1' },
  { code: 'GB', name: 'United Kingdom', dialCode: '44' },
  { code: 'AU', name: 'Australia', dialCode: '61' },
  { code: 'AT', name: 'Austria', dialCode: '43' },
  { code: 'BE', name: 'Belgium', dialCode: '32' },
  { code: 'BR', name: 'Brazil', dialCode: '55' },
  { code: 'DK', name: 'Denmark', dialCode: '45' },
  { code: 'FI', name: 'Finland', dialCode: '358' },
  { code: 'FR', name: 'France', dialCode: '33' },
  { code: 'DE', name: 'Germany', dialCode: '49' },
  { code: 'HK', name: 'Hong Kong', dialCode: '852' },
  { code: 'IE', name: 'Ireland', dialCode: '353' },
  { code: 'IT', name: 'Italy', dialCode: '39' },
  { code: 'JP', name: 'Japan', dialCode: '81' },
  { code: 'MX', name: 'Mexico', dialCode: '52' },
  { code: 'NL', name: 'Netherlands', dialCode: '31' },
  { code: 'NZ', name: 'New Zealand', dialCode: '64' },
  { code: 'NO', name: 'Norway', dialCode: '47' },
  { code: 'PL', name: 'Poland', dialCode: '48' },
  { code: 'PT', name: 'Portugal', dialCode: '351' },
  { code: 'SG', name: 'Singapore', dialCode: '65' },
  { code: 'KR', name: 'South Korea', dialCode: '82' },
  { code: 'ES', name: 'Spain', dialCode: '34' },
  { code: 'SE', name: 'Sweden', dialCode: '46' },
  { code: 'CH', name: 'Switzerland', dialCode: '41' },
  { code: 'AE', name: 'United Arab Emirates', dialCode: '971' },
];

export const countryByCode = (code: string): Country | undefined => countries.find((c) => c.code === code);

export interface Region {
  /** The postal abbreviation, which is what the billing address stores. */
  code: string;
  name: string;
}

/** The 50 states and the District of Columbia. */
export const usStates: readonly Region[] = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
].map(([code, name]) => ({ code: code!, name: name! }));

/** The 10 provinces and 3 territories. */
export const canadianProvinces: readonly Region[] = [
  ['AB', 'Alberta'],
  ['BC', 'British Columbia'],
  ['MB', 'Manitoba'],
  ['NB', 'New Brunswick'],
  ['NL', 'Newfoundland and Labrador'],
  ['NT', 'Northwest Territories'],
  ['NS', 'Nova Scotia'],
  ['NU', 'Nunavut'],
  ['ON', 'Ontario'],
  ['PE', 'Prince Edward Island'],
  ['QC', 'Quebec'],
  ['SK', 'Saskatchewan'],
  ['YT', 'Yukon'],
].map(([code, name]) => ({ code: code!, name: name! }));

/** The states a country's billing address must choose from; null where the state is free text. */
export function regionsOf(country: string): readonly Region[] | null {
  if (country === 'US') return usStates;
  if (country === 'CA') return canadianProvinces;
  return null;
}
