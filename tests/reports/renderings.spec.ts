// The three renderings of one hand-made report: JUnit per requirement, HTML self-contained and
// escaped, results.json's contract; and the redaction every text passes before it is written.
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { buildReport } from '../../reports/build-report.ts';
import { renderHtml } from '../../reports/render-html.ts';
import { renderJunit, xmlEscape } from '../../reports/render-junit.ts';
import { redactorFor } from '../../reports/redact.ts';
import { metadata, testRecord } from './report-records.ts';

const RUN = { metadata, startedAt: new Date('2026-11-21T10:00:00Z'), durationMs: 2500, runnerStatus: 'passed', runnerErrors: [] };
const hostile = '<script>alert("x")</script> & ]]> \u0007';
const built = buildReport(loadCatalog(), {
  metadata,
  tests: [
    testRecord({ requirements: ['CALLS-GET-OK'] }),
    testRecord({
      requirements: ['CALLS-GET-NOT-FOUND'],
      status: 'failed',
      violations: [{ requirement: 'CALLS-GET-NOT-FOUND', text: hostile }],
      errors: [`Expected: 404\nReceived: ${hostile}`],
    }),
    testRecord({ requirements: ['CHAT-UNREAD-OK'], status: 'skipped', skipReason: 'Writes are not allowed.' }),
  ],
  startedAt: new Date('2026-11-21T10:00:00Z'),
  durationMs: 2500,
  runnerStatus: 'failed',
  runnerErrors: [],
});

test('JUnit has one test case per requirement the interface can show, grouped by section, with failures and skips counted', () => {
  const xml = renderJunit(built);
  const notTestable = built.requirements.filter((result) => result.status === 'not-testable');
  expect(notTestable.length).toBeGreaterThan(0);
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  expect(xml.match(/<testcase /g)).toHaveLength(built.requirements.length - notTestable.length);
  expect(xml.match(/<testsuite /g)).toHaveLength(built.sections.length);
  expect(xml).toContain(`tests="${built.requirements.length - notTestable.length}" failures="1"`);
  // Not a skipped test: a property of its section, with the catalog's reason.
  expect(xml).not.toContain('<skipped message="not-testable');
  for (const result of notTestable) expect(xml).toContain(`<property name="not-testable" value="${result.id} [${result.level}]: `);
  expect(xml).toMatch(
    /<testcase classname="4.2 Get Call" name="CALLS-GET-NOT-FOUND [^"]*">\n\s*<failure message="CALLS-GET-NOT-FOUND failed" type="MUST">/,
  );
  expect(xml).toMatch(/name="CHAT-UNREAD-OK[^"]*">\n\s*<skipped message="skip: Writes are not allowed."/);
  expect(xml).toContain('<property name="verdict" value="NON-CONFORMANT"/>');
  // Nothing of the hostile text survives raw: no markup, no CDATA end, no control character.
  expect(xml).not.toContain('<script>');
  expect(xml).not.toContain('\u0007');
  expect(xml).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ]]&gt;');
});

test('xmlEscape leaves no character XML 1.0 cannot hold', () => {
  expect(xmlEscape('a\u0000b\u001bc\uFFFEd')).toBe('abcd');
  expect(xmlEscape('tab\tnew\nline')).toBe('tab\tnew\nline');
});

test('the HTML report is one self-contained file: no script, no external resource, every text escaped', () => {
  const html = renderHtml(built);
  expect(html.startsWith('<!doctype html>')).toBe(true);
  expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
  expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
  expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  expect(html).toContain('data-verdict="NON-CONFORMANT"');
  expect(html.match(/<tr id="req-/g)).toHaveLength(built.requirements.length);
  // Outcomes are spelled out, not only coloured.
  expect(html).toMatch(/<tr id="req-CALLS-GET-NOT-FOUND"[^>]*data-status="fail"[^>]*><td><span class="badge s-fail">✘ FAIL<\/span>/);
  expect(html).toContain('CONFORMANCE_SEED=42 npx playwright test --project=conformance');
});

test('results.json carries the verdict and every requirement with id, level and status', () => {
  const json = JSON.parse(JSON.stringify(built));
  expect(json.verdict).toBe('NON-CONFORMANT');
  expect(
    json.requirements.every(
      (entry: Record<string, unknown>) =>
        typeof entry.id === 'string' && typeof entry.level === 'string' && typeof entry.status === 'string',
    ),
  ).toBe(true);
  expect(json.run).toMatchObject({ seed: 42, profile: 'spec', suite: { version: '0.0.0-test' } });
});

test('the redactor replaces configured keys by their variable, apikey header values, and colour codes', () => {
  const redact = redactorFor({ API_KEY: 'sentinel-full-key-123', RESTRICTED_API_KEY: 'sentinel-full-key-123-ro' });
  expect(redact('sent sentinel-full-key-123-ro and sentinel-full-key-123')).toBe('sent $RESTRICTED_API_KEY and $API_KEY');
  expect(redact('Call log:\n  - apikey: some-other-key\n  - user-agent: x')).toBe('Call log:\n  - apikey: [redacted]\n  - user-agent: x');
  expect(redact('{"apikey":"leaked"}')).toBe('{"apikey":"[redacted]"}');
  expect(redact('-H "apikey: $API_KEY"')).toBe('-H "apikey: $API_KEY"');
  expect(redact('AUTH_ERR_EMPTY_APIKEY: status 401')).toBe('AUTH_ERR_EMPTY_APIKEY: status 401');
  expect(redact('\u001b[31mred\u001b[39m')).toBe('red');
});

test('requests are counted as sent, retries included; writes are listed by address and status; unanswered ones show as such', () => {
  const base = 'http://target.test/v3';
  const requests = [
    { operation: 'listCalls' as const, method: 'GET', base, status: 200, ms: 5, attempts: 3 },
    { operation: 'listCalls' as const, method: 'GET', base, status: 0, ms: 0 },
    {
      operation: 'markGroupConversationAsUnread' as const,
      method: 'DELETE',
      base,
      status: 200,
      ms: 7,
      url: `${base}/groups/g-1/conversation/read`,
    },
    {
      operation: 'markGroupConversationAsUnread' as const,
      method: 'DELETE',
      base,
      status: 200,
      ms: 9,
      url: `${base}/groups/g-1/conversation/read`,
      attempts: 2,
    },
    {
      operation: 'markGroupConversationAsUnread' as const,
      method: 'DELETE',
      base,
      status: 400,
      ms: 3,
      url: `${base}/groups/g-1/conversation/read`,
    },
  ];
  const report = buildReport(loadCatalog(), { ...RUN, tests: [testRecord({ requirements: ['CHAT-UNREAD-OK'], requests })] });

  expect(report.summary.requests).toBe(8);
  expect(report.operations.find((operation) => operation.operation === 'listCalls')).toMatchObject({
    requests: 4,
    statuses: { 0: 1, 200: 1 },
    latencyMs: { max: 5 },
  });
  expect(report.writes).toEqual([
    { method: 'DELETE', url: `${base}/groups/g-1/conversation/read`, status: 200, count: 3 },
    { method: 'DELETE', url: `${base}/groups/g-1/conversation/read`, status: 400, count: 1 },
  ]);
  const html = renderHtml(report);
  expect(html).toContain(`<td><code>${base}/groups/g-1/conversation/read</code></td><td>200</td><td>3</td>`);
  expect(html).toContain('no answer: 1');
  expect(renderHtml(buildReport(loadCatalog(), { ...RUN, tests: [] }))).toContain('No write was sent to the target');
});

test('a requirement another test found broken fails with its own failure record, while that test passes', () => {
  const credited = {
    requirement: 'CALL-FIELD-MODE',
    message:
      'CALL-FIELD-MODE [response_schema_conformance] mode "fax"\n  Expected: one of call, meet, presenter\n  Received: "fax"\n  Reproduce with:\n  curl …',
  };
  const report = buildReport(loadCatalog(), {
    ...RUN,
    tests: [
      testRecord({
        requirements: ['CALLS-LIST-FILTER-TYPE'],
        violations: [{ requirement: 'CALL-FIELD-MODE', text: 'mode "fax"' }],
        credited: [credited],
      }),
      testRecord({ requirements: ['CALL-FIELD-MODE'] }),
    ],
  });
  expect(report.requirements.find((result) => result.id === 'CALL-FIELD-MODE')?.status).toBe('fail');
  expect(report.requirements.find((result) => result.id === 'CALLS-LIST-FILTER-TYPE')?.status).toBe('pass');
  expect(report.failures).toEqual([
    expect.objectContaining({
      requirements: ['CALL-FIELD-MODE'],
      status: 'passed',
      credited: true,
      message: expect.stringMatching(
        /^Found while testing "CALLS-LIST-FILTER-TYPE a test", which holds CALLS-LIST-FILTER-TYPE:\nCALL-FIELD-MODE .*Expected: one of/s,
      ),
    }),
  ]);
  const html = renderHtml(report);
  expect(html).toContain('<article class="failure credited" id="failure-tests-example-calls-list-filter-type-spec-ts-1-CALL-FIELD-MODE">');
  expect(html).toContain(
    '<a href="#failure-tests-example-calls-list-filter-type-spec-ts-1-CALL-FIELD-MODE">See the failure found while testing CALLS-LIST-FILTER-TYPE a test</a>',
  );
  expect(renderJunit(report)).toMatch(
    /name="CALL-FIELD-MODE [^"]*">\n\s*<failure [^>]*>CALLS-LIST-FILTER-TYPE a test\nFound while testing/,
  );
});

test('the Readings section shows each subject learned, every candidate with what the run found of it, and the requirements judged under it', () => {
  const minutes = {
    subject: 'call-minutes' as const,
    candidates: ['sum-of-entries', 'call-span'],
    survivors: ['call-span'],
    accepted: ['call-span'],
    ruledOut: [{ candidate: 'sum-of-entries', reason: 'call "c-1": minutes are not its entries added up' }],
    evidence: '12 sampled calls, 3 of which tell the readings apart',
  };
  const count = {
    subject: 'participant-count' as const,
    candidates: ['entries', 'joined-entries'],
    survivors: [],
    accepted: ['entries'],
    ruledOut: [
      { candidate: 'entries', reason: 'call "c-2": 5 where it has 4 entries' },
      { candidate: 'joined-entries', reason: 'call "c-3": 5 where it has 2 joined entries' },
    ],
    evidence: '12 sampled calls',
  };
  const report = buildReport(loadCatalog(), {
    ...RUN,
    tests: [
      testRecord({ requirements: ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'], readings: [minutes] }),
      testRecord({ requirements: ['CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES'], readings: [count] }),
    ],
  });

  expect(report.readings.map((reading) => reading.subject)).toEqual(['call-minutes', 'participant-count']);
  expect(report.readings[0]).toMatchObject({
    noneSurvived: false,
    requirements: ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'],
    candidates: [
      { id: 'sum-of-entries', status: 'ruled-out', reason: 'call "c-1": minutes are not its entries added up' },
      { id: 'call-span', status: 'accepted' },
    ],
  });
  expect(report.readings[1]).toMatchObject({
    noneSurvived: true,
    // The participantsCount filter is learned as a subject of its own (participants-count-filter).
    requirements: ['CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES'],
  });
  expect(report.requirements.find((result) => result.id === 'CALL-MINUTES-SUM-OVER-PARTICIPANTS')?.readings).toEqual([
    { subject: 'call-minutes', accepted: ['call-span'] },
  ]);

  const html = renderHtml(report);
  expect(html).toContain('<a href="#readings">Readings</a>');
  expect(html).toMatch(
    /<div class="reading" id="reading-call-minutes" data-subject="call-minutes">[\s\S]*data-candidate="call-span" data-status="accepted"/,
  );
  expect(html).toContain('Ruled out: call &quot;c-1&quot;: minutes are not its entries added up');
  expect(html).toContain('No candidate fits everything the target answered');
  expect(html).toContain('Judged under the reading <a href="#reading-call-minutes">call-minutes</a>: call-span');
});
