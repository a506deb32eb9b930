// A representative set of the catalog faults the diff's plan and classing were extended to catch
// (docs/diff.md, "Every fault of the catalog"; the bench runs them all): one of each kind, each served
// as the candidate beside the clean reference, reported as a regression naming the requirement the
// fault breaks, on the operation and field path where it shows; and the clean reference against
// itself, on the same plan, reporting nothing, within the dry run's bound. With writes allowed, a
// fault of mark-unread only is reported too (read-only it cannot show), and the clean reference
// against itself still reports nothing, with mark-unread compared at least DIFF_MIN_COMPARISONS times.
import { test, expect } from '@playwright/test';
import { diffAgainstFault } from './fault-diff.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { planBound } from '../../core/diff/read-plan.ts';
import { writePlanBound } from '../../core/diff/write-plan.ts';
import { DEFAULT_MIN_COMPARISONS } from '../../core/diff/diff-settings.ts';
import { DIFF_FAULTS_SEED } from '../bench/diff-faults.ts';

const CAUGHT: ReadonlyArray<{ fault: string; why: string; finding: string }> = [
  { fault: 'header-name-case-sensitive', why: 'the key under another letter case', finding: 'listCalls (status) status' },
  { fault: 'key-prefix-accepted', why: 'the key with characters added', finding: 'listCalls (status) status' },
  {
    fault: 'invalid-key-reported-as-empty',
    why: 'one request of its kind, judged against its kind’s noise',
    finding: 'listCalls error.code error-code',
  },
  { fault: 'server-error-on-malformed-numbers', why: 'a malformed number', finding: 'listCalls (status) status' },
  { fault: 'not-found-500-for-unusual-characters', why: 'an unknown id with unusual characters', finding: 'getCall (status) status' },
  { fault: 'not-found-json-as-text', why: 'the body’s media type compared', finding: 'getCall (body) type' },
  { fault: 'mode-presenter-refused', why: 'a value the specification allows refused', finding: 'listCalls (status) status' },
  { fault: 'get-on-behalf-of-initiator-only', why: 'Get Call on behalf of a user who joined', finding: 'getCall (status) status' },
  { fault: 'pages-overlap-from-page-2', why: 'the pages of one listing judged together', finding: 'listCalls data[] membership' },
  { fault: 'get-shows-canceled-as-ended', why: 'Get Call against the call as the list showed it', finding: 'getCall data.status value' },
  { fault: 'every-key-refused', why: 'the side’s own key on the plainest asks', finding: 'getCall (status) status' },
  { fault: 'get-counts-views', why: 'the same Get Call sent again', finding: 'getCall data.metaData[] size' },
  { fault: 'get-ignores-on-behalf-of', why: 'Get Call on behalf of a user outside a one-to-one call', finding: 'getCall (status) status' },
  { fault: 'ended-at-an-hour-late', why: 'no reading of the filter fits the side’s learning', finding: 'listCalls data[] membership' },
  { fault: 'mid-missing-while-ongoing', why: 'the fields of a call not yet ended', finding: 'listCalls data[].mid missing-field' },
  { fault: 'receiver-type-inverted', why: 'every settled call one side lacks judged', finding: 'listCalls data[] membership' },
];

test.describe.configure({ mode: 'parallel', timeout: 60_000 });

test('the clean reference against itself on the extended plan: nothing reported, within the dry run’s bound', async () => {
  const outcome = await diffAgainstFault(undefined, DIFF_FAULTS_SEED);
  expect(outcome.findings).toEqual([]);
  expect(outcome.exitCode).toBe(0);
  expect(outcome.requests).toBeLessThanOrEqual(3 * planBound(20));
});

for (const { fault, why, finding } of CAUGHT) {
  test(`${fault} (${why}): a regression naming ${findFault(fault)!.requirements.join(', ')}`, async () => {
    const { requirements } = findFault(fault)!;
    const outcome = await diffAgainstFault(findFault(fault), DIFF_FAULTS_SEED);
    const lines = outcome.findings.map((found) => `${found.operation} ${found.path} ${found.kind}`);
    expect(lines, JSON.stringify(outcome.findings.map(({ samples: _, ...found }) => found))).toContain(finding);
    const naming = outcome.findings.filter(
      (found) => found.verdict === 'regression' && found.because.some((id) => requirements.includes(id)),
    );
    expect(naming.map((found) => `${found.operation} ${found.path} ${found.kind}`)).toContain(finding);
  });
}

test('with writes allowed, the clean reference against itself: nothing reported, exit 0, mark-unread compared enough to be judged', async () => {
  const outcome = await diffAgainstFault(undefined, DIFF_FAULTS_SEED, { writes: true });
  expect(outcome.findings).toEqual([]);
  expect([outcome.exitCode, outcome.inconclusive, outcome.notCompared]).toEqual([0, [], []]);
  const marks = outcome.operations.find(({ operation }) => operation === 'markGroupConversationAsUnread')!;
  expect(marks.comparisons).toBeGreaterThanOrEqual(DEFAULT_MIN_COMPARISONS);
  expect(outcome.requests).toBeLessThanOrEqual(3 * (planBound(20) + writePlanBound(DEFAULT_MIN_COMPARISONS)));
});

test('restricted-key-marks-unread: with writes, a regression naming CHAT-UNREAD-REQUIRES-FULL-ACCESS; read-only, mark-unread not compared', async () => {
  const fault = findFault('restricted-key-marks-unread')!;
  const [withWrites, readOnly] = await Promise.all([
    diffAgainstFault(fault, DIFF_FAULTS_SEED, { writes: true }),
    diffAgainstFault(fault, DIFF_FAULTS_SEED),
  ]);
  const naming = withWrites.findings.filter(
    (found) => found.verdict === 'regression' && found.because.includes('CHAT-UNREAD-REQUIRES-FULL-ACCESS'),
  );
  expect(naming.map((found) => `${found.operation} ${found.path} ${found.kind}`)).toContain(
    'markGroupConversationAsUnread (status) status',
  );
  expect(withWrites.exitCode).toBe(1);
  expect(readOnly.findings).toEqual([]);
  expect(readOnly.exitCode).toBe(0);
  expect(readOnly.notCompared.map(({ operation }) => operation)).toEqual(['markGroupConversationAsUnread']);
  expect(readOnly.operations.map(({ operation }) => operation).sort()).toEqual(['getCall', 'listCalls']);
});
