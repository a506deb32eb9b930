// The diff's reports show what the sides sent escaped: HTML, XML and control characters in a field
// name or a value reach no page, file or console line as they came; the candidate's curl lines name
// its own key variables.
import { test, expect } from '@playwright/test';
import { diffResults, diffSummaryLines, renderDiffHtml, renderDiffJunit } from '../../reports/diff-report.ts';
import type { DiffOutcome } from '../../core/diff/diff-outcome.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

const hostile = '<script>alert(1)</script>\u001b[31m';
const exchange = (status: number, text: string): Exchange => ({
  operation: 'listCalls',
  request: { method: 'GET', url: 'http://x.invalid/v3/calls', headers: { apikey: '$API_KEY' }, variableHeaders: ['apikey'] },
  response: { status, headers: {}, body: JSON.parse(text) as unknown, text, isJson: true },
  durationMs: 1,
});

test('a hostile field name and value are escaped everywhere; the candidate reproduces with $CANDIDATE_API_KEY', () => {
  const primary = exchange(200, JSON.stringify({ data: [] }));
  const candidate = exchange(200, JSON.stringify({ data: [], [hostile]: hostile }));
  const outcome: DiffOutcome = {
    exitCode: 1,
    findings: [
      {
        operation: 'listCalls',
        path: hostile,
        kind: 'extra-field',
        verdict: 'behaviour-change',
        because: [],
        comparisons: 10,
        candidate: 10,
        aa: 0,
        samples: [
          {
            comparison: {
              request: { operation: 'listCalls', kind: 'pages', label: 'List Calls', query: {}, key: 'full' },
              primary,
              again: primary,
              candidate,
            },
            difference: { path: hostile, kind: 'extra-field', candidate: hostile },
          },
        ],
      },
    ],
    withinNoise: [],
    inconclusive: [],
    notCompared: [],
    operations: [{ operation: 'listCalls', comparisons: 10, aaDiffering: 0, movement: 0 }],
    ignored: [],
    readingsChanged: [],
    orderedLists: true,
    requests: 30,
  };
  const results = diffResults(outcome);
  const html = renderDiffHtml(results);
  expect(html).not.toContain('<script>');
  expect(html).not.toContain('\u001b');
  expect(renderDiffJunit(results)).not.toContain('<script>');
  expect(diffSummaryLines(results).join('\n')).not.toContain('\u001b');
  const sample = results.findings[0]!.samples[0]!;
  expect(sample.primary.curl).toContain('$API_KEY');
  expect(sample.candidate.curl).toContain('$CANDIDATE_API_KEY');
});

test('mark-unread not compared in a read-only diff: named with why on the console, and a skipped JUnit case', () => {
  const outcome: DiffOutcome = {
    exitCode: 0,
    findings: [],
    withinNoise: [],
    inconclusive: [],
    notCompared: [{ operation: 'markGroupConversationAsUnread', reason: 'not compared: read-only (ALLOW_WRITES is not true)' }],
    operations: [{ operation: 'listCalls', comparisons: 10, aaDiffering: 0, movement: 0 }],
    ignored: [],
    readingsChanged: [],
    orderedLists: true,
    requests: 30,
  };
  const results = diffResults(outcome);
  expect(diffSummaryLines(results)).toContain('markGroupConversationAsUnread: not compared: read-only (ALLOW_WRITES is not true)');
  expect(renderDiffJunit(results)).toContain(
    '<testcase classname="diff.markGroupConversationAsUnread" name="markGroupConversationAsUnread: not compared"><skipped message="not compared: read-only (ALLOW_WRITES is not true)"/></testcase>',
  );
  expect(renderDiffJunit(results)).toContain('skipped="1"');
});
