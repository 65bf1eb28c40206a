import { expect, test } from '@playwright/test';
import { idsFilter } from '../../checks/data-api';
import { invalidAfterRefused, invalidLimitRefused, type Refused } from '../../checks/data-api-refusals';
import { jsonResponse } from '../../checks/evidence';
import { evaluate } from '../../checks/finding';

/** What the spec leaves open in the data API, judged by the platform's own choice when the profile states it. */

const reply = (status: number, body: unknown) =>
  jsonResponse({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), bytes: 0 });
const page = (count: number, hasMore = false) => reply(200, { items: Array.from({ length: count }, (_, i) => ({ id: `b${i}` })), hasMore, next: null });
const judge = (rule: typeof invalidLimitRefused, cases: Refused[]) =>
  evaluate(rule, cases, undefined).map((f) => (f.outcome === 'passed' ? f.outcome : `${f.outcome}: ${f.message}`));

test('data-api/params/after: refused with 400 by default; an empty last page where the profile says "empty"', () => {
  const refusedCase = (response: ReturnType<typeof reply>): Refused => ({ case: 'with an unknown "after"', response });
  expect(judge(invalidAfterRefused, [refusedCase(reply(400, { code: 'INVALID' }))])).toEqual(['passed']);
  expect(judge(invalidAfterRefused, [refusedCase(page(0))])).toEqual(['warning: a request with an unknown "after" was answered 200; refuse it with 400']);
  expect(judge(invalidAfterRefused, [{ ...refusedCase(page(0)), served: 'empty' }])).toEqual(['passed']);
  expect(judge(invalidAfterRefused, [{ ...refusedCase(page(2, true)), served: 'empty' }])).toEqual([
    'warning: a request with an unknown "after" was served 2 items, with more to come; the profile says this API serves an empty last page',
  ]);
  expect(judge(invalidAfterRefused, [{ ...refusedCase(reply(400, {})), served: 'empty' }])).toEqual([
    'warning: a request with an unknown "after" was answered 400; the profile says this API serves an empty last page',
  ]);
  // The status of a refusal is the profile's where it states one (dataApi.parameterErrorStatus).
  expect(judge(invalidAfterRefused, [{ ...refusedCase(reply(422, { error: {} })), status: 422 }])).toEqual(['passed']);
  expect(judge(invalidAfterRefused, [{ ...refusedCase(reply(400, { code: 'INVALID' })), status: 422 }])).toEqual([
    'warning: a request with an unknown "after" was answered 400; refuse it with 422',
  ]);
});

test('data-api/params/limit: over the largest, refused by default, or served at the largest where the profile says "clamped"', () => {
  expect(judge(invalidLimitRefused, [{ case: 'with "limit=101"', response: page(100), served: 100 }])).toEqual(['passed']);
  expect(judge(invalidLimitRefused, [{ case: 'with "limit=101"', response: page(101), served: 100 }])).toEqual([
    'warning: a request with "limit=101" was served 101 items; the profile says this API serves a page of at most 100 items',
  ]);
  expect(judge(invalidLimitRefused, [{ case: 'with "limit=101"', response: page(100) }])).toEqual([
    'warning: a request with "limit=101" was answered 200; refuse it with 400',
  ]);
});

test('data-api/filter/ids is judged in the encodings it is given, and says where a platform states its own', () => {
  expect(idsFilter.emulatorChoice?.field).toBe('dataApi.idsEncodings');
  expect(invalidLimitRefused.emulatorChoice?.field).toBe('dataApi.overLimit');
  expect(invalidAfterRefused.emulatorChoice?.field).toBe('dataApi.unknownCursor');
  const answers = [{ encoding: '"ids=a,b,c"', response: reply(200, { items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], hasMore: false, next: null }) }];
  expect(evaluate(idsFilter, { requested: ['a', 'b', 'c'], answers }, undefined).map((f) => f.outcome)).toEqual(['passed']);
});
