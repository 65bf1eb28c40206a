/**
 * Public reference data behind the field rules, with the plausibility checks of DESIGN §5. Each list
 * cites its source; none of this is in the spec, which is why the plausibility rules are SHOULD.
 */

/** ISO 3166-2:US subdivision codes without "US-": the 50 states, DC, and the six outlying areas. */
export const usSubdivisions = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'DC',
  'AS',
  'GU',
  'MP',
  'PR',
  'UM',
  'VI',
] as const;

/** NAICS 2022 sectors: the first two digits of every code. */
export const naicsSectors = [
  '11',
  '21',
  '22',
  '23',
  '31',
  '32',
  '33',
  '42',
  '44',
  '45',
  '48',
  '49',
  '51',
  '52',
  '53',
  '54',
  '55',
  '56',
  '61',
  '62',
  '71',
  '72',
  '81',
  '92',
] as const;

/** Campus and internet prefixes the IRS assigns to EINs ("How EINs are assigned and valid EIN prefixes"). */
const einPrefixes = new Set(
  [
    [1, 6],
    [10, 16],
    [20, 27],
    [30, 48],
    [50, 68],
    [71, 77],
    [80, 88],
    [90, 95],
    [98, 99],
  ].flatMap(([from, to]) => Array.from({ length: to! - from! + 1 }, (_, i) => String(from! + i).padStart(2, '0'))),
);

const digitsOf = (text: string) => text.replace(/\D/g, '');
const between = (value: number, [from, to]: readonly [number, number]) => value >= from && value <= to;

/** SSA: no SSN has area number 000, 666 or 900–999. */
export const ssnAreaValid = (identifier: string): boolean => {
  const area = Number(digitsOf(identifier).slice(0, 3));
  return area !== 0 && area !== 666 && area < 900;
};

/** IRS: an ITIN's 4th and 5th digits are 50–65, 70–88, 90–92 or 94–99. */
export const itinGroupValid = (identifier: string): boolean => {
  const group = Number(digitsOf(identifier).slice(3, 5));
  return (
    [
      [50, 65],
      [70, 88],
      [90, 92],
      [94, 99],
    ] as const
  ).some((range) => between(group, range));
};

export const einPrefixValid = (identifier: string): boolean => einPrefixes.has(digitsOf(identifier).slice(0, 2));

/** ABA routing number: 9 digits whose 3-7-1 weighted sum is a multiple of 10. */
export function abaChecksumValid(routing: string): boolean {
  if (!/^[0-9]{9}$/.test(routing)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return [...routing].reduce((sum, digit, i) => sum + Number(digit) * weights[i]!, 0) % 10 === 0;
}
