import { createRequire } from 'node:module';
import { usPhoneVerdict } from '../checks/account-info-user';
import { einPrefixValid, itinGroupValid, naicsSectors, ssnAreaValid, usSubdivisions } from '../checks/reference-data';

/**
 * docs/REFERENCE-LISTS.md: every list a field rule accepts from, read from the rules themselves (so the page cannot
 * drift from them), with its source and, for the phone numbers, the version of the metadata it was read from.
 */

/** 200, 201, 202, 205 → "200–202, 205". */
function ranges(values: readonly number[], width: number): string {
  const parts: string[] = [];
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j]! + 1) j++;
    const [from, to] = [String(values[i]).padStart(width, '0'), String(values[j]).padStart(width, '0')];
    parts.push(i === j ? from : `${from}–${to}`);
    i = j + 1;
  }
  return parts.join(', ') || 'none';
}

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

/** For each area code, the exchanges (200–999) at which a number with it is a valid US number. */
function areaCodes() {
  const always: number[] = [];
  const some: { area: number; exchanges: number[] }[] = [];
  let never = 0;
  for (let area = 200; area <= 999; area++) {
    const exchanges = upTo(1000)
      .filter((exchange) => exchange >= 200)
      .filter((exchange) => usPhoneVerdict(`${area}${exchange}0142`) === undefined);
    if (exchanges.length === 800) always.push(area);
    else if (exchanges.length === 0) never++;
    else some.push({ area, exchanges });
  }
  return { always, some, never };
}

export function referenceListsDoc(): string {
  const version = (createRequire(__filename)('libphonenumber-js/package.json') as { version: string }).version;
  const { always, some, never } = areaCodes();
  const twoDigits = upTo(100);
  return [
    '# The lists the field rules accept from',
    '',
    'Generated from the rules themselves (`npm run generate`): what each list holds is what the rule accepts. None of it is',
    "in the spec, which is why the tax-id plausibility rules are SHOULD (docs/RULES.md gives each rule's level).",
    '',
    '## US phone numbers: `user.phone`, `company.phoneNumber` (`us-number`)',
    '',
    `A number is accepted when libphonenumber-js ${version} (Google's libphonenumber metadata, as installed) says it is a`,
    'valid number of the United States or a US territory (PR, GU, VI, AS, MP); the exchange is its 4th to 6th digits.',
    '',
    `- **Every exchange accepted** (${always.length} area codes): ${ranges(always, 3)}.`,
    `- **Some exchanges only** (${some.length} area codes): ${some.map(({ area, exchanges }) => `${area} (exchanges ${ranges(exchanges, 3)})`).join('; ') || 'none'}.`,
    `- **None**: the other ${never} area codes from 200 to 999 (not assigned, not a US region, or not a geographic code).`,
    '',
    '## US states: `company.address.state`, `company.legalAddress.state` (`code`)',
    '',
    `ISO 3166-2:US codes without "US-", upper case: ${usSubdivisions.join(', ')}.`,
    '',
    '## NAICS sectors: `company.industry.naicsCode` (`sector`)',
    '',
    `NAICS 2022: the first two digits of a code are one of ${naicsSectors.join(', ')}.`,
    '',
    '## Tax ids: `company.taxInfo.identifier` (SHOULD)',
    '',
    `- **SSN** (\`ssn-area\`, SSA): the first three digits (the area) are ${ranges(
      upTo(1000).filter((area) => ssnAreaValid(String(area).padStart(3, '0') + '000000')),
      3,
    )}.`,
    `- **ITIN** (\`itin-prefix\`, \`itin-group\`, IRS): starts with 9; the 4th and 5th digits are ${ranges(
      twoDigits.filter((group) => itinGroupValid(`900${String(group).padStart(2, '0')}0000`)),
      2,
    )}.`,
    `- **EIN** (\`ein-prefix\`, IRS "How EINs are assigned and valid EIN prefixes"): the first two digits are ${ranges(
      twoDigits.filter((prefix) => einPrefixValid(`${String(prefix).padStart(2, '0')}0000000`)),
      2,
    )}.`,
    '',
  ].join('\n');
}
