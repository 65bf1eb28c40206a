import { expect, test } from '@playwright/test';
import { allRules } from '../../checks/catalogue';
import type { Finding } from '../../checks/finding';
import { buildCertification } from '../../reports/certification';
import { failureGroups } from '../../reports/failure-groups';
import { certificationHtml } from '../../reports/html-report';
import { everyRuleJudged, runInfo } from '../support/certifications';

/** A report names each kind of problem of a rule once, by its code, with how many more like it (issue 41, item 6). */

const rule = allRules.find((r) => r.owner === 'partner' && r.level === 'MUST' && r.id.startsWith('funding-sources/'))!;
const failed = (code: string | undefined, message: string): Finding => ({
  rule: rule.id,
  field: rule.field,
  clause: rule.clause,
  level: rule.level,
  outcome: 'failed',
  ...(code ? { code } : {}),
  message,
  impact: rule.impact,
});

test('findings group by their code, most frequent first; a finding without a code by its message', () => {
  const findings = [
    failed('pattern', 'fundingSources[0].routingNumber "12" is not 9 digits'),
    failed('missing', 'fundingSources[3].routingNumber is missing'),
    ...Array.from({ length: 9 }, (_, i) => failed('pattern', `fundingSources[${i + 1}].routingNumber "${i}" is not 9 digits`)),
    failed(undefined, 'the page showed an error'),
    failed(undefined, 'the page showed an error'),
  ];
  expect(failureGroups(findings)).toEqual([
    { message: 'fundingSources[0].routingNumber "12" is not 9 digits', count: 10 },
    { message: 'the page showed an error', count: 2 },
    { message: 'fundingSources[3].routingNumber is missing', count: 1 },
  ]);
});

test('"What to fix first" names each kind of problem once, with how many more like it, not the first three messages of one kind', () => {
  const findings = [
    ...Array.from({ length: 12 }, (_, i) => failed('pattern', `fundingSources[${i}].routingNumber "${i}" is not 9 digits`)),
    failed('missing', 'fundingSources[12].routingNumber is missing'),
  ];
  const cert = buildCertification(runInfo(), [everyRuleJudged(findings, { title: 'funding sources' })]);
  const page = certificationHtml(cert, []);
  const fixFirst = page.slice(page.indexOf('id="fix-first"'), page.indexOf('</section>', page.indexOf('id="fix-first"')));
  expect(fixFirst).toContain('fundingSources[0].routingNumber &quot;0&quot; is not 9 digits</strong> (and 11 more like it)');
  expect(fixFirst).toContain('fundingSources[12].routingNumber is missing</strong>');
  expect(fixFirst).not.toContain('fundingSources[1].routingNumber');
});
