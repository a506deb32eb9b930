// A verdict holds for what the run exercised: an operation no request went to is named beside it,
// with why, in results.json, the verdict's reason (and so the console and the job summary), JUnit
// and the HTML report.
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { operationNames } from '../../openapi/contract.ts';
import { buildReport } from '../../reports/build-report.ts';
import { renderHtml } from '../../reports/render-html.ts';
import { renderJunit } from '../../reports/render-junit.ts';
import type { RequestRecord } from '../../core/results/request-log.ts';
import type { TestRecord } from '../../core/results/report-model.ts';
import { metadata, testRecord } from './report-records.ts';

const request = (operation: RequestRecord['operation'], method = 'GET'): RequestRecord => ({
  operation,
  method,
  base: 'http://target/v3',
  status: 200,
  ms: 3,
});
const reads = [
  testRecord({ requirements: ['CALLS-LIST-OK'], requests: [request('listCalls')] }),
  testRecord({ requirements: ['CALLS-GET-OK'], requests: [request('getCall')] }),
];
const SKIPPED =
  'Writes are not allowed against this target: set ALLOW_WRITES=true with GROUP_GUID, MESSAGE_ID and ACTING_UID to run mark-unread.';
const markUnreadSkipped = testRecord({ requirements: ['CHAT-UNREAD-OK'], status: 'skipped', skipReason: SKIPPED });

const build = (tests: TestRecord[], allowWrites: boolean) =>
  buildReport(loadCatalog(), {
    metadata: { ...metadata, allowWrites },
    tests,
    startedAt: new Date(),
    durationMs: 1,
    runnerStatus: 'passed',
    runnerErrors: [],
    operations: operationNames(),
  });

test("the operations are the OpenAPI document's, named by their summaries", () => {
  expect(operationNames()).toEqual([
    { id: 'listCalls', name: 'List Calls', method: 'GET' },
    { id: 'getCall', name: 'Get Call', method: 'GET' },
    { id: 'markGroupConversationAsUnread', name: 'Mark Group Conversation As Unread', method: 'DELETE' },
  ]);
});

test('writes off: CONFORMANT still (exit 0), and every report names mark-unread as not exercised because ALLOW_WRITES is not true', () => {
  const report = build([...reads, markUnreadSkipped], false);
  expect(report.verdict).toBe('CONFORMANT');
  expect(report.exitCode).toBe(0);
  expect(report.unexercised).toEqual([
    { operation: 'markGroupConversationAsUnread', name: 'Mark Group Conversation As Unread', reason: 'ALLOW_WRITES is not true' },
  ]);
  expect(report.verdictReason).toMatch(/\. Mark Group Conversation As Unread not exercised: ALLOW_WRITES is not true\.$/);
  expect(renderJunit(report)).toContain(
    '<property name="unexercised" value="Mark Group Conversation As Unread: ALLOW_WRITES is not true"/>',
  );
  const html = renderHtml(report);
  expect(html).toMatch(
    /<header class="verdict[^>]*>[\s\S]*<p class="reason">[^<]*Mark Group Conversation As Unread not exercised: ALLOW_WRITES is not true\.<\/p>/,
  );
  expect(html).toContain(
    '<tr class="unexercised"><th scope="row">markGroupConversationAsUnread</th><td>0</td><td colspan="4">Not exercised: ALLOW_WRITES is not true</td></tr>',
  );
});

test('writes on and sent: nothing is named', () => {
  const report = build(
    [...reads, testRecord({ requirements: ['CHAT-UNREAD-OK'], requests: [request('markGroupConversationAsUnread', 'DELETE')] })],
    true,
  );
  expect(report.unexercised).toEqual([]);
  expect(report.verdictReason).not.toContain('not exercised');
  expect(renderJunit(report)).not.toContain('name="unexercised"');
});

test("writes on but its tests skipped, or not run at all: the skip's reason, or that the run was filtered", () => {
  const skipped = build(
    [...reads, testRecord({ requirements: ['CHAT-UNREAD-OK'], status: 'skipped', skipReason: 'No group to write to.' })],
    true,
  );
  expect(skipped.unexercised?.[0]?.reason).toBe('its tests were skipped: No group to write to.');
  const filtered = build([reads[0]!], true);
  expect(filtered.verdictReason).toContain('Get Call not exercised: no test of it ran in this run (a filtered or partial run).');
  expect(filtered.verdictReason).toContain(
    'Mark Group Conversation As Unread not exercised: no test of it ran in this run (a filtered or partial run).',
  );
});

test('a NON-CONFORMANT run names it too; an INCONCLUSIVE one, which judged little anyway, keeps its one reason', () => {
  const failing = testRecord({
    requirements: ['CALLS-LIST-OK'],
    status: 'failed',
    violations: [{ requirement: 'CALLS-LIST-OK', text: 'x' }],
    requests: [request('listCalls')],
  });
  expect(build([failing, reads[1]!, markUnreadSkipped], false).verdictReason).toMatch(
    /^1 MUST requirement\(s\) failed: CALLS-LIST-OK\. Mark Group Conversation As Unread not exercised: ALLOW_WRITES is not true\.$/,
  );
  const none = build([markUnreadSkipped], false);
  expect(none.verdict).toBe('INCONCLUSIVE');
  expect(none.verdictReason).toBe('Every test was skipped.');
  expect(none.unexercised).toHaveLength(3);
});
