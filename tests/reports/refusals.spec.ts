// When a run cannot be certified, from hand-made reports: a failed MUST, an inconclusive run, and a
// required group (a section's MUST requirements) that was skipped or never ran.
import { test, expect } from '@playwright/test';
import { isTestable, loadCatalog } from '../../openapi/catalog.ts';
import { buildReport } from '../../reports/build-report.ts';
import { refusalsOf } from '../../reports/bundle/refusals.ts';
import type { TestRecord } from '../../core/results/report-model.ts';
import { metadata, testRecord } from './report-records.ts';

const catalog = loadCatalog();
/** One passing test per testable requirement: a complete, conformant run. */
const complete = () => catalog.requirements.filter(isTestable).map((entry) => testRecord({ requirements: [entry.id] }));
const refusals = (tests: TestRecord[], allowWrites = true) =>
  refusalsOf(
    buildReport(catalog, {
      metadata: { ...metadata, allowWrites },
      tests,
      startedAt: new Date(),
      durationMs: 1,
      runnerStatus: 'passed',
      runnerErrors: [],
    }),
  );

test('a complete conformant run is not refused', () => {
  expect(refusals(complete())).toEqual([]);
});

test('a failed MUST refuses the bundle, naming the requirement', () => {
  const tests = complete().map((record) =>
    record.requirements[0] === 'CALLS-GET-OK'
      ? {
          ...record,
          status: 'failed' as const,
          violations: [{ requirement: 'CALLS-GET-OK', text: 'another call' }],
          attempts: [{ status: 'failed' as const, violated: ['CALLS-GET-OK'], errors: [] }],
        }
      : record,
  );
  expect(refusals(tests)).toEqual([
    expect.stringMatching(/^The verdict is NON-CONFORMANT: 1 MUST requirement\(s\) failed: CALLS-GET-OK\.$/),
  ]);
});

test('a skipped required group refuses the bundle, naming the section, its requirements and why they were skipped', () => {
  const skipped = 'Writes are not allowed against this target.';
  const tests = complete().map((record) =>
    record.requirements[0]!.startsWith('CHAT-UNREAD-') ? { ...record, status: 'skipped' as const, skipReason: skipped } : record,
  );
  const reasons = refusals(tests, false);
  expect(reasons).toContainEqual(
    expect.stringMatching(
      new RegExp(`^Required group §4\\.3 Mark Group Conversation As Unread was not fully checked: CHAT-UNREAD-OK \\(skip\\).* ${skipped}$`),
    ),
  );
  expect(reasons).toContainEqual(expect.stringContaining('Writes were not allowed'));
});

test('a required requirement no test ran (a filtered run) refuses the bundle', () => {
  const tests = complete().filter((record) => record.requirements[0] !== 'CALLS-GET-NOT-FOUND');
  expect(refusals(tests)).toEqual([
    expect.stringContaining('Required group §4.2 Get Call was not fully checked: CALLS-GET-NOT-FOUND (uncovered)'),
  ]);
});

test('an inconclusive run refuses the bundle with its reason', () => {
  const tests = complete().map((record) =>
    record.requirements[0] === 'CALLS-GET-OK'
      ? { ...record, status: 'timedOut' as const, errors: ['Test timeout of 30000ms exceeded.'] }
      : record,
  );
  const reasons = refusals(tests);
  expect(reasons[0]).toMatch(/^The verdict is INCONCLUSIVE: .*CALLS-GET-OK/);
});
