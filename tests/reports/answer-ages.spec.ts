// What the suite learned of its answers' age, in every report: the `answer-age` annotations a test
// carries, read as data; the run's bound and largest age per operation in results.json, index.html
// and the console; shards merged take the largest of each operation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { loadCatalog } from '../../openapi/catalog.ts';
import { operationNames } from '../../openapi/contract.ts';
import { ANSWER_AGE_ANNOTATION } from '../../core/checks/answer-age.ts';
import type { TestRecord } from '../../core/results/report-model.ts';
import { agesNoted } from '../../reports/answer-ages.ts';
import { buildReport } from '../../reports/build-report.ts';
import { consoleSummary } from '../../reports/console-summary.ts';
import { renderHtml } from '../../reports/render-html.ts';
import { reporterRun } from './reporter-run.ts';
import { metadata, testRecord } from './report-records.ts';

const OPERATIONS = operationNames().map((operation) => operation.id);
const noted = (...descriptions: string[]) =>
  agesNoted(
    descriptions.map((description) => ({ type: ANSWER_AGE_ANNOTATION, description })),
    OPERATIONS,
  );
const build = (tests: TestRecord[], boundSeconds = 10) =>
  buildReport(loadCatalog(), {
    metadata: { ...metadata, maxAnswerAgeSeconds: boundSeconds },
    tests,
    startedAt: new Date('2026-11-21T10:00:00Z'),
    durationMs: 1,
    runnerStatus: 'passed',
    runnerErrors: [],
  });
const aged = (requirement: string, answerAges: TestRecord['answerAges']) => testRecord({ requirements: [requirement], answerAges });

test("a test's answer-age annotations are read as the fixture writes them: whole seconds per operation, the largest of several", () => {
  expect(noted('{"listCalls":7}')).toEqual({ listCalls: 7 });
  expect(noted('{"listCalls":3,"getCall":2}', '{"listCalls":9.8}')).toEqual({ getCall: 2, listCalls: 9 });
  // Other annotations are not ages.
  expect(agesNoted([{ type: 'observation', description: '{"listCalls":7}' }], OPERATIONS)).toEqual({});
});

test('a malformed answer-age annotation adds nothing: not JSON, not an object, unknown operations, no finite non-negative number, too long', () => {
  for (const text of [
    'listCalls 7',
    '[7]',
    '7',
    'null',
    '"listCalls"',
    '{"deleteCall":7,"__proto__":{"listCalls":7}}',
    '{"listCalls":"7"}',
    '{"listCalls":-3}',
    '{"listCalls":1e400}',
    '{"listCalls":1e300}',
    '{"listCalls":{"seconds":7}}',
    `{"listCalls":7,"pad":"${'x'.repeat(2_000)}"}`,
  ])
    expect(noted(text), text).toEqual({});
  expect(agesNoted([{ type: ANSWER_AGE_ANNOTATION }], OPERATIONS)).toEqual({});
  // Less than a second says nothing was seen; what is well formed in a partly malformed one is kept.
  expect(noted('{"listCalls":0.5}')).toEqual({});
  expect(noted('{"listCalls":4,"getCall":"x","other":9}')).toEqual({ listCalls: 4 });
});

test('results.json carries the bound and the largest age per operation over every test', () => {
  const report = build([
    aged('CALLS-LIST-OK', { listCalls: 3 }),
    aged('CALLS-LIST-FILTER-STATUS', { listCalls: 7, getCall: 2 }),
    testRecord({ requirements: ['CALLS-GET-OK'] }),
  ]);
  expect(JSON.parse(JSON.stringify(report)).answerAges).toEqual({ boundSeconds: 10, largest: { getCall: 2, listCalls: 7 } });
  expect(build([testRecord({ requirements: ['CALLS-GET-OK'] })], 4).answerAges).toEqual({ boundSeconds: 4, largest: {} });
});

test('index.html says the bound and, per operation by its name, the largest age seen; the console says it in one line', () => {
  const report = build([aged('CALLS-LIST-OK', { listCalls: 7 })]);
  const html = renderHtml(report);
  expect(html).toContain('<a href="#answer-age">Answer age</a>');
  const section = html.slice(html.indexOf('<section id="answer-age">'), html.indexOf('<section id="not-shown">'));
  expect(section).toContain(
    'MAX_ANSWER_AGE = 10 s: comparisons of two answers fail only on what no answer up to 10 s older than its arrival explains.',
  );
  expect(section).toContain('<li data-operation="listCalls">List Calls: answers at least 7 s older than their arrival were seen.</li>');
  expect(section).not.toContain('Get Call');
  const lines = consoleSummary(report, { mode: 'compact', reportPath: 'index.html' }).split('\n');
  expect(lines.filter((line) => line.startsWith('Answer age: '))).toEqual([
    'Answer age: answers older than their arrival were seen (listCalls at least 7 s); comparisons were judged on answers asked 10 s (MAX_ANSWER_AGE) apart where an age could explain what they found',
  ]);
});

test('with no age seen, index.html says so and the console says nothing of it', () => {
  const report = build([testRecord({ requirements: ['CALLS-LIST-OK'] })]);
  expect(renderHtml(report)).toMatch(/<section id="answer-age">.*<p>No answer was seen to be older than its arrival\.<\/p>/);
  expect(consoleSummary(report, { mode: 'compact', reportPath: 'index.html' })).not.toContain('Answer age');
});

test('shards merged take the largest age of each operation, whichever shard saw it', () => {
  const first = [aged('CALLS-LIST-OK', { listCalls: 12 }), aged('CALLS-GET-OK', { getCall: 1 })];
  const second = [aged('CALLS-LIST-FILTER-STATUS', { listCalls: 5, getCall: 3 })];
  // A merge builds one report from every shard's tests, as merge-reports hands them to the reporter.
  expect(build([...first, ...second]).answerAges?.largest).toEqual({ getCall: 3, listCalls: 12 });
  expect(build([...second, ...first]).answerAges).toEqual(build([...first, ...second]).answerAges);
});

/** A test as Playwright hands it to the reporter, with its annotations; only what the reporter reads. */
function ended(id: string, retry: number, status: TestResult['status'], descriptions: string[]): [TestCase, TestResult] {
  const testCase = { id, title: `CALLS-LIST-OK ${id}`, location: { file: `suite/${id}.spec.ts`, line: 1, column: 1 }, annotations: [] };
  const result = {
    retry,
    status,
    duration: 1,
    errors: [],
    attachments: [],
    annotations: [
      { type: 'requirement', description: 'CALLS-LIST-OK' },
      ...descriptions.map((description) => ({ type: ANSWER_AGE_ANNOTATION, description })),
    ],
  };
  return [testCase as unknown as TestCase, result as unknown as TestResult];
}

test("the reporter reads each test's annotations into results.json, malformed ones left out, the largest of its attempts and of all tests kept", async () => {
  // A first attempt saw 11 s, its retry 4 s; another test, 8 s and a malformed annotation.
  const dir = await reporterRun('answer-ages', { ...metadata, maxAnswerAgeSeconds: 6 }, [
    ended('retried', 0, 'failed', ['{"listCalls":11}']),
    ended('retried', 1, 'passed', ['{"listCalls":4}']),
    ended('other', 0, 'passed', ['{"getCall":8}', '{"getCall":"<b>99</b>"}', 'not JSON']),
  ]);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { answerAges: unknown };
  expect(results.answerAges).toEqual({ boundSeconds: 6, largest: { getCall: 8, listCalls: 11 } });
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  expect(html.match(/<li data-operation="[^"]*">[^<]*<\/li>/g)).toEqual([
    '<li data-operation="listCalls">List Calls: answers at least 11 s older than their arrival were seen.</li>',
    '<li data-operation="getCall">Get Call: answers at least 8 s older than their arrival were seen.</li>',
  ]);
});
