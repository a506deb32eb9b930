// The requirement matrix and the verdict, from hand-made test records: each outcome, the roll-up
// to the worst one, and the three verdicts.
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { buildReport } from '../../reports/build-report.ts';
import type { TestRecord } from '../../core/results/report-model.ts';
import { metadata, testRecord } from './report-records.ts';
import { RUN_STOPPED_PREFIX } from '../../core/transport/run-state.ts';

const catalog = loadCatalog();
const report = (tests: TestRecord[], extra: { runnerErrors?: string[]; runnerStatus?: string; profile?: 'spec' | 'strict' } = {}) =>
  buildReport(catalog, {
    metadata: { ...metadata, profile: extra.profile ?? 'spec' },
    tests,
    startedAt: new Date('2026-11-21T10:00:00Z'),
    durationMs: 1000,
    runnerStatus: extra.runnerStatus ?? 'passed',
    runnerErrors: extra.runnerErrors ?? [],
  });
const statusOf = (built: ReturnType<typeof report>, id: string) => built.requirements.find((result) => result.id === id)?.status;

test('a requirement passes when its tests pass; one no test holds is uncovered; one the interface cannot show is not testable', () => {
  const built = report([testRecord({ requirements: ['CALLS-GET-NOT-FOUND'] })]);
  expect(statusOf(built, 'CALLS-GET-NOT-FOUND')).toBe('pass');
  expect(statusOf(built, 'CALLS-LIST-AND-NARROWING')).toBe('uncovered');
  expect(statusOf(built, 'MEDIA-SRTP-ENCRYPTION')).toBe('not-testable');
  expect(built.requirements.find((result) => result.id === 'MEDIA-SRTP-ENCRYPTION')?.reason).toBeTruthy();
  expect(built.requirements).toHaveLength(catalog.requirements.length);
  expect(built.verdict).toBe('CONFORMANT');
  expect(built.exitCode).toBe(0);
});

test('a MUST violation fails its requirement, even when another test found it, and makes the run NON-CONFORMANT', () => {
  const built = report([
    testRecord({ requirements: ['CALLS-GET-NOT-FOUND'] }),
    testRecord({
      requirements: ['CALLS-GET-OK'],
      status: 'failed',
      violations: [{ requirement: 'CALLS-GET-NOT-FOUND', text: 'answered 200' }],
      errors: ['CALLS-GET-NOT-FOUND Expected: 404\nReceived: 200'],
    }),
  ]);
  expect(statusOf(built, 'CALLS-GET-NOT-FOUND')).toBe('fail');
  expect(
    built.requirements
      .find((result) => result.id === 'CALLS-GET-NOT-FOUND')
      ?.tests.map((t) => t.status)
      .sort(),
  ).toEqual(['failed', 'passed']);
  // The test that holds CALLS-GET-OK stopped on another requirement: CALLS-GET-OK was not fully checked.
  expect(statusOf(built, 'CALLS-GET-OK')).toBe('error');
  expect(built.verdict).toBe('NON-CONFORMANT');
  expect(built.exitCode).toBe(1);
  expect(built.summary.mustFailed).toEqual(['CALLS-GET-NOT-FOUND']);
  expect(built.failures).toEqual([
    expect.objectContaining({
      requirements: ['CALLS-GET-NOT-FOUND'],
      message: expect.stringContaining('Expected: 404'),
      rerun: expect.stringContaining('CONFORMANCE_SEED=42'),
    }),
  ]);
});

test('a SHOULD not met warns without failing the verdict', () => {
  const built = report([
    testRecord({
      requirements: ['ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT'],
      warnings: [{ requirement: 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT', text: 'a 500 for page=-1' }],
    }),
  ]);
  expect(statusOf(built, 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT')).toBe('warn');
  expect(built.requirements.find((result) => result.id === 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT')?.warnings).toEqual([
    'a 500 for page=-1',
  ]);
  expect(built.verdict).toBe('CONFORMANT');
});

test('a requirement whose tests were all skipped is skipped, with their reason', () => {
  const built = report([
    testRecord({ requirements: ['CALLS-GET-NOT-FOUND'] }),
    testRecord({ requirements: ['CHAT-UNREAD-OK'], status: 'skipped', skipReason: 'Writes are not allowed.' }),
  ]);
  expect(built.requirements.find((result) => result.id === 'CHAT-UNREAD-OK')).toMatchObject({
    status: 'skip',
    reason: 'Writes are not allowed.',
  });
  expect(built.verdict).toBe('CONFORMANT');
});

test('a test that broke without a violation leaves its requirement in error and the run INCONCLUSIVE', () => {
  const built = report([
    testRecord({ requirements: ['CALLS-GET-NOT-FOUND'], status: 'failed', errors: ['apiRequestContext.fetch: socket hang up'] }),
  ]);
  expect(built.requirements.find((result) => result.id === 'CALLS-GET-NOT-FOUND')).toMatchObject({
    status: 'error',
    reason: expect.stringContaining('socket hang up'),
  });
  expect(built.verdict).toBe('INCONCLUSIVE');
  expect(built.exitCode).toBe(3);
});

test('a test skipped because the run could send nothing more is not judged: its requirement is in error and the run INCONCLUSIVE', () => {
  const reason = `${RUN_STOPPED_PREFIX}REQUEST_BUDGET (400 requests) is spent.`;
  const built = report([
    testRecord({ requirements: ['CALLS-GET-NOT-FOUND'] }),
    testRecord({ requirements: ['CALLS-GET-OK'], status: 'skipped', skipReason: reason }),
  ]);
  expect(built.requirements.find((result) => result.id === 'CALLS-GET-OK')).toMatchObject({
    status: 'error',
    reason: expect.stringContaining('did not run: REQUEST_BUDGET (400 requests) is spent.'),
  });
  expect(built.verdict).toBe('INCONCLUSIVE');
});

test('an error outside the tests, an interrupted run, or a run with nothing run is INCONCLUSIVE', () => {
  const passing = [testRecord({ requirements: ['CALLS-GET-NOT-FOUND'] })];
  expect(report(passing, { runnerErrors: ['TargetUnreachable: refused'] })).toMatchObject({
    verdict: 'INCONCLUSIVE',
    verdictReason: expect.stringContaining('refused'),
  });
  expect(report(passing, { runnerStatus: 'interrupted' }).verdict).toBe('INCONCLUSIVE');
  expect(report([]).verdict).toBe('INCONCLUSIVE');
  expect(report([testRecord({ requirements: ['CHAT-UNREAD-OK'], status: 'skipped' })]).verdict).toBe('INCONCLUSIVE');
});

test('a failure beats an error: a run with both is NON-CONFORMANT', () => {
  const built = report([
    testRecord({ requirements: ['CALLS-GET-OK'], status: 'timedOut', errors: ['Test timeout of 30000ms exceeded.'] }),
    testRecord({ requirements: ['CALLS-GET-NOT-FOUND'], status: 'failed', violations: [{ requirement: 'CALLS-GET-NOT-FOUND', text: '' }] }),
  ]);
  expect(built.verdict).toBe('NON-CONFORMANT');
});

test("the strict profile judges a requirement at its convention's level and says so", () => {
  const built = report([testRecord({ requirements: ['PAGINATION-PAGE-PARAMETERS'] })], { profile: 'strict' });
  expect(built.requirements.find((result) => result.id === 'PAGINATION-PAGE-PARAMETERS')).toMatchObject({
    level: 'MUST',
    specLevel: 'INFO',
    text: expect.stringContaining('Strict profile:'),
  });
  expect(
    report([testRecord({ requirements: ['PAGINATION-PAGE-PARAMETERS'] })]).requirements.find(
      (result) => result.id === 'PAGINATION-PAGE-PARAMETERS',
    )?.level,
  ).toBe('INFO');
});

test('observations of "not shown" items are kept with the stance, and requests are summed per operation', () => {
  const built = report([
    testRecord({
      requirements: ['PAGINATION-SORT-ORDER'],
      observations: [{ requirement: 'PAGINATION-SORT-ORDER', text: 'newest first' }],
      requests: [
        { operation: 'listCalls', method: 'GET', base: 'http://127.0.0.1:1234/v3', status: 200, ms: 4 },
        { operation: 'listCalls', method: 'GET', base: 'http://127.0.0.1:1234/v3', status: 400, ms: 2 },
        { operation: 'getCall', method: 'GET', base: 'http://127.0.0.1:1234/v3', status: 404, ms: 1 },
      ],
    }),
  ]);
  expect(built.requirements.find((result) => result.id === 'PAGINATION-SORT-ORDER')).toMatchObject({
    observations: ['newest first'],
    stance: expect.any(String),
  });
  expect(built.operations).toEqual([
    { operation: 'getCall', requests: 1, statuses: { 404: 1 }, latencyMs: { p50: 1, p95: 1, max: 1 } },
    { operation: 'listCalls', requests: 2, statuses: { 200: 1, 400: 1 }, latencyMs: { p50: 2, p95: 4, max: 4 } },
  ]);
  expect(built.run.targetAddresses).toEqual(['http://127.0.0.1:1234/v3']);
});

test("sections come in the specification's reading order, 2.1 before 3", () => {
  const ids = report([]).sections.map((section) => section.id);
  expect(ids.indexOf('2.1')).toBeLessThan(ids.indexOf('3'));
  expect(ids.indexOf('4')).toBeLessThan(ids.indexOf('4.1'));
  expect(ids[0]).toBe('1');
});

test('shards that ran with different seeds are told apart', () => {
  const built = report([
    testRecord({ requirements: ['CALLS-GET-OK'], seed: 1 }),
    testRecord({ requirements: ['CALLS-GET-NOT-FOUND'], seed: 2 }),
  ]);
  expect(built.run.seeds).toEqual([1, 2]);
});

/** A test retried by Playwright: one attempt per status given, violating `id` in the failed ones. */
const retried = (id: string, statuses: Array<'passed' | 'failed'>): TestRecord =>
  testRecord({
    requirements: [id],
    status: statuses.at(-1)!,
    violations: statuses.at(-1) === 'failed' ? [{ requirement: id, text: 'broken' }] : [],
    attempts: statuses.map((status) => ({
      status,
      violated: status === 'failed' ? [id] : [],
      errors: status === 'failed' ? [`${id} Expected: x\nReceived: y`] : [],
    })),
  });

test('a requirement violated in every attempt of a retried test fails; in some attempts only, it is intermittent, with its counts', () => {
  const always = report([retried('CALLS-GET-NOT-FOUND', ['failed', 'failed', 'failed'])]);
  expect(statusOf(always, 'CALLS-GET-NOT-FOUND')).toBe('fail');
  expect(always.requirements.find((result) => result.id === 'CALLS-GET-NOT-FOUND')?.attempts).toEqual({ violated: 3, judged: 3 });
  expect(always.summary.intermittent).toEqual([]);

  const sometimes = report([retried('CALLS-GET-NOT-FOUND', ['failed', 'passed'])]);
  expect(sometimes.requirements.find((result) => result.id === 'CALLS-GET-NOT-FOUND')).toMatchObject({
    status: 'intermittent',
    attempts: { violated: 1, judged: 2 },
  });
  expect(sometimes.summary.intermittent).toEqual(['CALLS-GET-NOT-FOUND']);
  expect(sometimes.summary.mustFailed).toEqual(['CALLS-GET-NOT-FOUND']);
  // An intermittent MUST failure is a failure: the target answered wrongly, if not every time.
  expect(sometimes.verdict).toBe('NON-CONFORMANT');
  expect(sometimes.verdictReason).toContain('CALLS-GET-NOT-FOUND (intermittent, 1 of 2 attempts)');
  expect(sometimes.failures).toEqual([
    expect.objectContaining({ requirements: ['CALLS-GET-NOT-FOUND'], status: 'failed', attempts: { failed: 1, total: 2 } }),
  ]);
});

test("a violation credited by a test that passed once is deterministic, whatever the requirement's own test did", () => {
  const built = report([
    testRecord({ requirements: ['CALLS-GET-NOT-FOUND'] }),
    testRecord({ requirements: ['CALLS-GET-OK'], violations: [{ requirement: 'CALLS-GET-NOT-FOUND', text: 'answered 200' }] }),
  ]);
  expect(statusOf(built, 'CALLS-GET-NOT-FOUND')).toBe('fail');
});

const listing = (entries: Array<{ requirement: string; reason: string; until?: string; expired?: boolean }>) => ({
  ...metadata,
  expectations: { file: 'known-failures.yaml', entries: entries.map((entry) => ({ ...entry, expired: entry.expired ?? false })) },
});
const reportWith = (tests: TestRecord[], meta: typeof metadata) =>
  buildReport(catalog, {
    metadata: meta,
    tests,
    startedAt: new Date('2026-11-21T10:00:00Z'),
    durationMs: 1000,
    runnerStatus: 'passed',
    runnerErrors: [],
  });
const failing = (id: string) =>
  testRecord({ requirements: [id], status: 'failed', violations: [{ requirement: id, text: 'broken' }], errors: [`${id} Expected: x`] });

test('a listed known failure that fails is an expected failure: shown, and not counted against the verdict', () => {
  const built = reportWith(
    [failing('CALL-MINUTES-SUM-OVER-PARTICIPANTS'), testRecord({ requirements: ['CALLS-GET-OK'] })],
    listing([{ requirement: 'CALL-MINUTES-SUM-OVER-PARTICIPANTS', reason: 'fix scheduled for 4.2', until: '2027-03-01' }]),
  );
  expect(built.requirements.find((result) => result.id === 'CALL-MINUTES-SUM-OVER-PARTICIPANTS')).toMatchObject({
    status: 'expected-fail',
    expected: { reason: 'fix scheduled for 4.2', until: '2027-03-01', expired: false },
  });
  expect(built.verdict).toBe('CONFORMANT');
  expect(built.verdictReason).toContain('beyond the 1 expected failure(s) listed (CALL-MINUTES-SUM-OVER-PARTICIPANTS)');
  expect(built.summary.mustFailed).toEqual([]);
  expect(built.expectations).toEqual({
    file: 'known-failures.yaml',
    expectedFailures: ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'],
    unexpectedPasses: [],
    expired: [],
  });
});

test('a listed requirement that passes is an unexpected pass; an expired entry counts as not listed', () => {
  const built = reportWith(
    [failing('CALL-MINUTES-SUM-OVER-PARTICIPANTS'), testRecord({ requirements: ['CALLS-GET-OK'] })],
    listing([
      { requirement: 'CALLS-GET-OK', reason: 'was broken' },
      { requirement: 'CALL-MINUTES-SUM-OVER-PARTICIPANTS', reason: 'fix scheduled', until: '2026-01-01', expired: true },
    ]),
  );
  expect(built.expectations).toEqual({
    file: 'known-failures.yaml',
    expectedFailures: [],
    unexpectedPasses: ['CALLS-GET-OK'],
    expired: ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'],
  });
  expect(built.requirements.find((result) => result.id === 'CALL-MINUTES-SUM-OVER-PARTICIPANTS')).toMatchObject({
    status: 'fail',
    expected: { expired: true },
  });
  expect(built.requirements.find((result) => result.id === 'CALLS-GET-OK')).toMatchObject({
    status: 'pass',
    expected: { reason: 'was broken' },
  });
  expect(built.verdict).toBe('NON-CONFORMANT');
});
