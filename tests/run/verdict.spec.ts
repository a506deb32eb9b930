// The verdict sorts violations by the level of the requirement they break under the profile:
// MUST fails, SHOULD warns, INFO is observed; the strict profile holds conventions as MUST.
import { test, expect, type TestInfo } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import type { Profile } from '../../core/run/profile.ts';
import type { Violation } from '../../core/checks/violation.ts';
import { ConformanceFailure, describeViolations, Verdict } from '../../core/run/verdict.ts';
import { notesOf } from '../../core/results/annotations.ts';
import { exchange } from '../checks/exchanges.ts';

const catalog = loadCatalog();

function verdictFor(profile: Profile = 'spec', holds: string[] = []) {
  const info = {
    title: 'SELF-TEST a verdict',
    annotations: holds.map((id) => ({ type: 'requirement', description: id })) as TestInfo['annotations'],
  };
  return { info, verdict: new Verdict(info as unknown as TestInfo, catalog, profile) };
}

/** The annotations a verdict added (a test's own `requirement` annotations left out). */
const added = (info: { annotations: TestInfo['annotations'] }) =>
  info.annotations.filter((annotation) => annotation.type !== 'requirement');

const violation = (requirement: string, title = `${requirement} was broken`): Violation => ({
  check: 'self_test',
  requirement,
  title,
  expected: 'what the requirement asks',
  received: 'something else',
  exchange: exchange('getCall', 404, { code: 'X' }),
});

/** The ConformanceFailure `run` throws, or undefined. */
function failureOf(run: () => void): ConformanceFailure | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ConformanceFailure) return error;
    throw error;
  }
  return undefined;
}

test('no violation passes without annotations', () => {
  const { info, verdict } = verdictFor();
  verdict.enforce([]);
  verdict.enforce();
  expect(info.annotations).toEqual([]);
});

test('a MUST violation throws a ConformanceFailure carrying it', () => {
  const { verdict } = verdictFor();
  const failure = failureOf(() => verdict.enforce([violation('CALL-FIELD-TYPE')]));
  expect(failure?.violations.map((found) => found.requirement)).toEqual(['CALL-FIELD-TYPE']);
  expect(failure?.name).toBe('ConformanceFailure');
});

test('a SHOULD violation becomes a warning annotation, not a failure', () => {
  const { info, verdict } = verdictFor();
  verdict.enforce([violation('CALL-MID-ON-STARTED-CALLS')]);
  expect(info.annotations).toEqual([
    {
      type: 'warning:CALL-MID-ON-STARTED-CALLS',
      description: expect.stringMatching(
        /^CALL-MID-ON-STARTED-CALLS was broken \(expected what the requirement asks; received something else\)$/,
      ),
    },
  ]);
});

test('an INFO violation becomes an observation annotation under the spec profile', () => {
  const { info, verdict } = verdictFor('spec');
  verdict.enforce([violation('ERROR-STATUS-CODES')]);
  expect(info.annotations).toEqual([
    { type: 'observation:ERROR-STATUS-CODES', description: expect.stringMatching(/^what the target does: /) },
  ]);
});

test('under the strict profile a requirement with a strict convention fails instead of being observed', () => {
  const { info, verdict } = verdictFor('strict');
  expect(failureOf(() => verdict.enforce([violation('ERROR-STATUS-CODES')]))?.violations).toHaveLength(1);
  expect(failureOf(() => verdict.enforce([violation('ERROR-BODY-SHAPE')]))?.violations).toHaveLength(1);
  expect(info.annotations).toEqual([]);
});

test('the strict profile leaves requirements without a convention at their own level', () => {
  const { info, verdict } = verdictFor('strict');
  verdict.enforce([violation('CALLS-LIST-DATE-FILTER-SEMANTICS'), violation('CALL-MID-ON-STARTED-CALLS')]);
  expect(info.annotations.map((annotation) => annotation.type)).toEqual([
    'observation:CALLS-LIST-DATE-FILTER-SEMANTICS',
    'warning:CALL-MID-ON-STARTED-CALLS',
  ]);
});

test('recorded violations are judged at the next enforce, with those passed to it, and only once', () => {
  const { info, verdict } = verdictFor();
  verdict.record([violation('CALL-FIELD-MODE'), violation('CALL-MID-ON-STARTED-CALLS')]);
  const failure = failureOf(() => verdict.enforce([violation('CALL-FIELD-STATUS')]));
  expect(failure?.violations.map((found) => found.requirement)).toEqual(['CALL-FIELD-MODE', 'CALL-FIELD-STATUS']);
  expect(info.annotations.map((annotation) => annotation.type)).toEqual(['warning:CALL-MID-ON-STARTED-CALLS']);
  expect(() => verdict.enforce()).not.toThrow();
});

test("observe annotates what the target did; an unknown requirement id is the suite's error", () => {
  const { info, verdict } = verdictFor();
  verdict.observe('CALLS-GET-ENVELOPE', 'the call came wrapped in data');
  expect(info.annotations).toEqual([{ type: 'observation:CALLS-GET-ENVELOPE', description: 'the call came wrapped in data' }]);
  expect(() => verdict.observe('NO-SUCH-REQUIREMENT', 'x')).toThrow('unknown requirement NO-SUCH-REQUIREMENT');
  expect(() => verdict.enforce([violation('NO-SUCH-REQUIREMENT')])).toThrow('unknown requirement NO-SUCH-REQUIREMENT');
});

test('outcomeOf follows the level of the requirement', () => {
  const { verdict } = verdictFor();
  expect(['CALLS-LIST-OK', 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT', 'RATE-LIMITS'].map((id) => verdict.outcomeOf(id))).toEqual([
    'fail',
    'warn',
    'observe',
  ]);
});

test('when the test has failed, finish marks each violation of the last failure, and any other MUST met, with its requirement id', () => {
  const { info, verdict } = verdictFor();
  expect(
    failureOf(() => verdict.enforce([violation('CALL-FIELD-TYPE', 'a fax'), violation('PAGINATION-ENVELOPE', 'no meta')])),
  ).toBeDefined();
  verdict.recordBackground([violation('CALL-FIELD-MODE', 'a mode'), violation('CALL-MID-ON-STARTED-CALLS', 'no mid')]);
  verdict.finish(true);
  expect(info.annotations).toEqual([
    { type: 'violation:CALL-FIELD-TYPE', description: 'a fax' },
    { type: 'violation:PAGINATION-ENVELOPE', description: 'no meta' },
    { type: 'violation:CALL-FIELD-MODE', description: 'a mode' },
  ]);
});

test('a failure that finish itself throws is marked too', () => {
  const { info, verdict } = verdictFor();
  verdict.recordBackground([violation('CALL-FIELD-TYPE', 'a fax')]);
  expect(failureOf(() => verdict.finish(false))).toBeDefined();
  expect(info.annotations).toEqual([{ type: 'violation:CALL-FIELD-TYPE', description: 'a fax' }]);
});

test('the same warning is annotated once, and at most 20 warnings are', () => {
  const { info, verdict } = verdictFor();
  verdict.enforce([violation('CALL-MID-ON-STARTED-CALLS', 'same'), violation('CALL-MID-ON-STARTED-CALLS', 'same')]);
  expect(info.annotations).toHaveLength(1);
  verdict.enforce(Array.from({ length: 30 }, (_, index) => violation('CALL-MID-ON-STARTED-CALLS', `call ${index}`)));
  expect(info.annotations).toHaveLength(20);
});

test('the failure message shows Expected, Received, the exchange and a curl line with $API_KEY, never a real key', () => {
  const message = describeViolations([violation('CALL-FIELD-TYPE', 'call type fax')]);
  expect(message).toContain('CALL-FIELD-TYPE [self_test] call type fax');
  expect(message).toContain('Expected: what the requirement asks');
  expect(message).toContain('Received: something else');
  expect(message).toContain('GET http://127.0.0.1:8080/v3/calls/');
  expect(message).toContain('→ 404');
  expect(message).toContain('Reproduce with:');
  expect(message).toMatch(/curl -sS -X GET -H "apikey: \$API_KEY" 'http:\/\/127\.0\.0\.1:8080\/v3\/calls\/\S+'/);
  expect(message).not.toContain(DEMO_KEYS.fullAccess);
  expect(message).not.toContain(DEMO_KEYS.readOnly);
});

test('the failure message shows the first five violations and counts the rest', () => {
  const message = describeViolations(Array.from({ length: 7 }, (_, index) => violation('CALL-FIELD-TYPE', `call ${index}`)));
  expect(message).toContain('call 4');
  expect(message).not.toContain('call 5');
  expect(message).toContain('…and 2 more violations');
});

test('a ConformanceFailure message is the description of its violations', () => {
  const violations = [violation('CALL-FIELD-TYPE')];
  expect(new ConformanceFailure(violations).message).toBe(describeViolations(violations));
});

test('violations of one exchange share one curl line; each exchange has its own', () => {
  const shared = exchange('listCalls', 200, { data: [] });
  const message = describeViolations([
    { ...violation('CALL-FIELD-TYPE', 'first'), exchange: shared },
    { ...violation('CALL-FIELD-MODE', 'second'), exchange: shared },
    violation('CALL-FIELD-STATUS', 'third'),
  ]);
  expect(message.match(/Reproduce with:/g)).toHaveLength(2);
  expect(message.indexOf('second')).toBeLessThan(message.indexOf('Reproduce with:'));
});

test('a MUST violation of a requirement the test does not hold is credited to it, and the test goes on', () => {
  const { info, verdict } = verdictFor('spec', ['CALLS-LIST-FILTER-TYPE']);
  expect(() => verdict.enforce([violation('CALL-FIELD-MODE', 'a mode outside the enum')])).not.toThrow();
  expect(added(info)).toEqual([{ type: 'violation:CALL-FIELD-MODE', description: 'a mode outside the enum' }]);
  expect(verdict.creditedViolations()).toEqual([
    { requirement: 'CALL-FIELD-MODE', message: expect.stringContaining('CALL-FIELD-MODE [self_test] a mode outside the enum') },
  ]);
  expect(verdict.creditedViolations()[0]?.message).toContain('Reproduce with:');
});

test('a MUST violation of a requirement the test holds fails it, beside the ones it credits', () => {
  const { info, verdict } = verdictFor('spec', ['CALLS-LIST-FILTER-TYPE']);
  const failure = failureOf(() =>
    verdict.enforce([violation('CALL-FIELD-MODE'), violation('CALLS-LIST-FILTER-TYPE', 'a video call for type=audio')]),
  );
  expect(failure?.violations.map((found) => found.requirement)).toEqual(['CALLS-LIST-FILTER-TYPE']);
  expect(added(info)).toEqual([{ type: 'violation:CALL-FIELD-MODE', description: 'CALL-FIELD-MODE was broken' }]);
});

test('what the per-exchange checks found of other requirements is credited when the test ends, passed or failed', () => {
  const passed = verdictFor('spec', ['CALLS-LIST-FILTER-TYPE']);
  passed.verdict.recordBackground([violation('CALL-FIELD-MODE', 'a mode'), violation('CALL-MID-ON-STARTED-CALLS', 'no mid')]);
  expect(() => passed.verdict.finish(false)).not.toThrow();
  expect(added(passed.info).map((annotation) => annotation.type)).toEqual([
    'violation:CALL-FIELD-MODE',
    'warning:CALL-MID-ON-STARTED-CALLS',
  ]);

  const failed = verdictFor('spec', ['CALLS-LIST-FILTER-TYPE']);
  failed.verdict.recordBackground([violation('CALL-FIELD-MODE', 'a mode')]);
  failed.verdict.finish(true);
  expect(added(failed.info)).toEqual([{ type: 'violation:CALL-FIELD-MODE', description: 'a mode' }]);
  expect(failed.verdict.creditedViolations().map((credited) => credited.requirement)).toEqual(['CALL-FIELD-MODE']);
});

test('a credited requirement keeps at most five distinct violations to describe it', () => {
  const { verdict } = verdictFor('spec', ['CALLS-LIST-FILTER-TYPE']);
  verdict.enforce(Array.from({ length: 8 }, (_, index) => violation('CALL-FIELD-MODE', `call ${index}`)));
  verdict.enforce([violation('CALL-FIELD-MODE', 'call 0')]);
  const [credited] = verdict.creditedViolations();
  expect(credited?.message).toContain('call 4');
  expect(credited?.message).not.toContain('call 5');
});

test('a test that holds no requirement answers for every violation it meets', () => {
  const { verdict } = verdictFor('spec', []);
  expect(failureOf(() => verdict.enforce([violation('CALL-FIELD-MODE')]))).toBeDefined();
});

test("many violations credited to one requirement never crowd out the test's own in its annotations", () => {
  const { info, verdict } = verdictFor('spec', ['CALLS-LIST-FILTER-STATUS']);
  verdict.enforce(Array.from({ length: 30 }, (_, index) => violation('CALL-FIELD-STATUS', `call ${index} shows "missed"`)));
  expect(failureOf(() => verdict.enforce([violation('CALLS-LIST-FILTER-STATUS', 'a missed call for status=unanswered')]))).toBeDefined();
  verdict.finish(true);
  const named = notesOf(info.annotations, 'violation', catalog.byId.keys()).map((note) => note.requirement);
  expect(named.filter((id) => id === 'CALL-FIELD-STATUS')).toHaveLength(20);
  expect(named).toContain('CALLS-LIST-FILTER-STATUS');
});
