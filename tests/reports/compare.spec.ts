// Two runs compared, requirement by requirement, from hand-made reports: what newly fails, what was
// fixed, what else changed outcome, and what the target answered differently where the
// specification leaves it open; and how the terminal and the HTML report show it.
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { buildReport } from '../../reports/build-report.ts';
import { compareRuns, describeComparison } from '../../reports/compare.ts';
import { renderHtml } from '../../reports/render-html.ts';
import type { TestRecord } from '../../core/results/report-model.ts';
import { metadata, testRecord } from './report-records.ts';

const catalog = loadCatalog();
const reportOf = (tests: TestRecord[]) =>
  buildReport(catalog, {
    metadata,
    tests,
    startedAt: new Date('2026-11-21T10:00:00Z'),
    durationMs: 1000,
    runnerStatus: 'passed',
    runnerErrors: [],
  });
const failing = (id: string) => testRecord({ requirements: [id], status: 'failed', violations: [{ requirement: id, text: 'broken' }] });
const minutes = (accepted: string) => ({
  subject: 'call-minutes' as const,
  candidates: ['sum-of-entries', 'call-span'],
  survivors: [accepted],
  accepted: [accepted],
  ruledOut: [],
  evidence: '9 calls',
});

const base = reportOf([
  testRecord({ requirements: ['CALLS-GET-OK'] }),
  failing('CALLS-GET-NOT-FOUND'),
  testRecord({ requirements: ['CHAT-UNREAD-OK'] }),
  testRecord({ requirements: ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'], readings: [minutes('sum-of-entries')] }),
  testRecord({
    requirements: ['ERROR-STATUS-CODES'],
    observations: [{ requirement: 'ERROR-STATUS-CODES', text: 'AUTH_ERR_EMPTY_APIKEY: status 401' }],
  }),
]);
const next = reportOf([
  failing('CALLS-GET-OK'),
  testRecord({ requirements: ['CALLS-GET-NOT-FOUND'] }),
  testRecord({ requirements: ['CHAT-UNREAD-OK'], status: 'skipped', skipReason: 'Writes are not allowed.' }),
  testRecord({ requirements: ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'], readings: [minutes('call-span')] }),
  testRecord({
    requirements: ['ERROR-STATUS-CODES'],
    observations: [{ requirement: 'ERROR-STATUS-CODES', text: 'AUTH_ERR_EMPTY_APIKEY: status 403' }],
  }),
]);
const comparison = compareRuns(base, next, { base: 'base/results.json', next: 'next/results.json' });

test('what newly fails, what was fixed and what else changed, requirement by requirement', () => {
  expect(comparison.newlyFailing).toEqual([{ id: 'CALLS-GET-OK', level: 'MUST', base: 'pass', next: 'fail' }]);
  expect(comparison.fixed).toEqual([{ id: 'CALLS-GET-NOT-FOUND', level: 'MUST', base: 'fail', next: 'pass' }]);
  expect(comparison.changed).toEqual([{ id: 'CHAT-UNREAD-OK', level: 'MUST', base: 'pass', next: 'skip' }]);
});

test('what the target answered differently where the specification leaves it open: readings and not-shown items', () => {
  expect(comparison.readings).toEqual([{ subject: 'call-minutes', base: ['sum-of-entries'], next: ['call-span'] }]);
  expect(comparison.notShown).toEqual([
    { id: 'ERROR-STATUS-CODES', base: ['AUTH_ERR_EMPTY_APIKEY: status 401'], next: ['AUTH_ERR_EMPTY_APIKEY: status 403'] },
  ]);
});

test('two runs that agree compare with nothing to say', () => {
  const same = compareRuns(base, base, { base: 'a', next: 'b' });
  expect([same.newlyFailing, same.fixed, same.changed, same.readings, same.notShown]).toEqual([[], [], [], [], []]);
});

test('a known failure that is fixed counts as fixed; one that is no longer listed and fails counts as newly failing', () => {
  const listed = {
    ...metadata,
    expectations: { file: 'known.yaml', entries: [{ requirement: 'CALLS-GET-OK', reason: 'known', expired: false }] },
  };
  const expected = buildReport(catalog, {
    metadata: listed,
    tests: [failing('CALLS-GET-OK')],
    startedAt: new Date(),
    durationMs: 1,
    runnerStatus: 'passed',
    runnerErrors: [],
  });
  expect(
    compareRuns(expected, reportOf([testRecord({ requirements: ['CALLS-GET-OK'] })]), { base: 'a', next: 'b' }).fixed.map(
      (change) => change.id,
    ),
  ).toEqual(['CALLS-GET-OK']);
  expect(
    compareRuns(expected, reportOf([failing('CALLS-GET-OK')]), { base: 'a', next: 'b' }).newlyFailing.map((change) => change.id),
  ).toEqual(['CALLS-GET-OK']);
});

test('the terminal shows each change on a line, newly failing first; the HTML report has a section of its own', () => {
  const text = describeComparison(comparison);
  expect(text.indexOf('Newly failing (1)')).toBeLessThan(text.indexOf('Fixed (1)'));
  expect(text).toContain('  CALLS-GET-OK [MUST]: pass → fail');
  expect(text).toContain('  reading call-minutes: sum-of-entries → call-span');
  const html = renderHtml({ ...next, comparison });
  expect(html).toContain('<section id="comparison"><h2>Compared with the baseline</h2>');
  expect(html).toMatch(
    /<h3 id="newly-failing">Newly failing \(1\)<\/h3><ul><li><a href="#req-CALLS-GET-OK"><code>CALLS-GET-OK<\/code><\/a> MUST: pass → fail/,
  );
});
