// A requirement whose tests could not be judged because the target broke another it stands on (no
// page of calls to sample) is blocked: not error, not pass, not skip. The matrix names what blocks
// it and whether that failed; the verdict is NON-CONFORMANT when the blocker failed at MUST, and
// INCONCLUSIVE when nothing failed (the run could not judge it); every rendering says so.
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { buildReport } from '../../reports/build-report.ts';
import { renderHtml } from '../../reports/render-html.ts';
import { renderJunit } from '../../reports/render-junit.ts';
import { refusalsOf } from '../../reports/bundle/refusals.ts';
import type { TestRecord } from '../../core/results/report-model.ts';
import { BLOCKED_PREFIX } from '../../core/results/blocked.ts';
import { metadata, testRecord } from './report-records.ts';

const catalog = loadCatalog();
const report = (tests: TestRecord[]) =>
  buildReport(catalog, {
    metadata,
    tests,
    startedAt: new Date('2026-11-21T10:00:00Z'),
    durationMs: 1000,
    runnerStatus: 'failed',
    runnerErrors: [],
  });

const SAW = 'GET /calls answered status 200 with JSON that is not a pagination envelope: meta holds no pagination object';
const blockedTest = (id: string) =>
  testRecord({
    requirements: [id],
    status: 'skipped',
    skipReason: `${BLOCKED_PREFIX}PAGINATION-ENVELOPE: ${SAW}`,
    blocked: { requirement: 'PAGINATION-ENVELOPE', text: SAW },
  });
const envelopeFailed = testRecord({
  requirements: ['PAGINATION-ENVELOPE'],
  status: 'failed',
  violations: [{ requirement: 'PAGINATION-ENVELOPE', text: 'meta.pagination is missing' }],
  errors: ['PAGINATION-ENVELOPE Expected: an envelope'],
});

test('a test blocked by a failed MUST leaves its requirement blocked, naming the blocker and what was seen, and the run NON-CONFORMANT', () => {
  const built = report([envelopeFailed, blockedTest('CALLS-GET-OK'), blockedTest('CALL-FIELD-TYPE')]);
  const blocked = built.requirements.find((result) => result.id === 'CALLS-GET-OK')!;
  expect(blocked).toMatchObject({ status: 'blocked', blockedBy: ['PAGINATION-ENVELOPE'] });
  expect(blocked.reason).toBe(`Not judged: blocked by PAGINATION-ENVELOPE (fail): ${SAW}`);
  expect(built.summary.requirements).toMatchObject({ blocked: 2, error: 0, fail: 1 });
  expect(built).toMatchObject({ verdict: 'NON-CONFORMANT', exitCode: 1 });
  expect(built.verdictReason).toContain('2 requirement(s) not judged, blocked by PAGINATION-ENVELOPE.');
  // Skipped, not failed: no failure record for the blocked ones.
  expect(built.failures.flatMap((failure) => failure.requirements)).toEqual(['PAGINATION-ENVELOPE']);
});

test('a blocked test beats a passing one of the same requirement, and a failure or an error beats a blocked one', () => {
  const built = report([
    envelopeFailed,
    testRecord({ requirements: ['CALLS-GET-OK'] }),
    blockedTest('CALLS-GET-OK'),
    blockedTest('CALLS-GET-MATCHES-LIST'),
    testRecord({
      requirements: ['CALLS-GET-MATCHES-LIST'],
      status: 'failed',
      violations: [{ requirement: 'CALLS-GET-MATCHES-LIST', text: 'differs' }],
    }),
    blockedTest('CALLS-GET-ON-BEHALF-OF'),
    testRecord({ requirements: ['CALLS-GET-ON-BEHALF-OF'], status: 'failed', errors: ['socket hang up'] }),
  ]);
  const statusOf = (id: string) => built.requirements.find((result) => result.id === id)?.status;
  expect([statusOf('CALLS-GET-OK'), statusOf('CALLS-GET-MATCHES-LIST'), statusOf('CALLS-GET-ON-BEHALF-OF')]).toEqual([
    'blocked',
    'fail',
    'error',
  ]);
});

test('a requirement blocked by one that did not fail says so, and without a MUST failure the run is INCONCLUSIVE', () => {
  const built = report([testRecord({ requirements: ['PAGINATION-ENVELOPE'] }), blockedTest('CALLS-GET-OK')]);
  expect(built.requirements.find((result) => result.id === 'CALLS-GET-OK')?.reason).toContain(
    'blocked by PAGINATION-ENVELOPE (pass: it did not fail in this run)',
  );
  expect(built).toMatchObject({ verdict: 'INCONCLUSIVE', exitCode: 3 });
  expect(built.verdictReason).toContain('could not be judged; first: CALLS-GET-OK');
});

test('JUnit shows a blocked requirement as skipped with the reason, HTML as blocked in words, and certification refuses it', () => {
  const built = report([envelopeFailed, blockedTest('CALLS-GET-OK')]);
  const xml = renderJunit(built);
  expect(xml).toMatch(
    /name="CALLS-GET-OK[^"]*">\n\s*<skipped message="Not judged: blocked by PAGINATION-ENVELOPE \(fail\): GET \/calls answered/,
  );
  expect(xml).not.toMatch(/<error /);
  const html = renderHtml(built);
  expect(html).toMatch(
    /<tr id="req-CALLS-GET-OK" data-requirement="CALLS-GET-OK" data-status="blocked" [^>]*><td><span class="badge s-blocked">⊘ BLOCKED<\/span>/,
  );
  expect(html).toContain('Not judged: blocked by PAGINATION-ENVELOPE (fail)');
  expect(refusalsOf(built).join('\n')).toContain('CALLS-GET-OK (blocked)');
});
