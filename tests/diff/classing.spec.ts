// Classing against the words: the requirements each side breaks decide a regression or a fix; else a
// reading learned differently decides a reading changed; else a behaviour change. The checks run on
// the answers are the suite's own: an answer that breaks nothing is never made a regression.
import { test, expect } from '@playwright/test';
import { classDifference, violationsOf, type SideJudging } from '../../core/diff/classing.ts';
import type { PlannedRequest } from '../../core/diff/read-plan.ts';
import type { Violation } from '../../core/checks/violation.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { loadContract } from '../../openapi/contract.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { indexSchemaRequirements } from '../../core/checks/schema-requirements.ts';
import { OPEN_READINGS } from '../../core/checks/readings.ts';

const violation = (requirement: string): Violation => ({ check: 'c', requirement, title: 't', expected: 'e', received: 'r' });

test('the candidate breaking what the primary meets is a regression naming it; the reverse a fix', () => {
  expect(classDifference([{ primary: [], candidate: [violation('CALL-FIELD-RECEIVER')] }], [])).toEqual({
    verdict: 'regression',
    because: ['CALL-FIELD-RECEIVER'],
  });
  expect(classDifference([{ primary: [violation('CALLS-GET-NOT-FOUND')], candidate: [] }], ['list-order: a → b'])).toEqual({
    verdict: 'fix',
    because: ['CALLS-GET-NOT-FOUND'],
  });
  // Both break the same requirement: neither a regression nor a fix.
  const both = [{ primary: [violation('X')], candidate: [violation('X')] }];
  expect(classDifference(both, ['list-order: newest-first → oldest-first']).verdict).toBe('reading-changed');
  expect(classDifference(both, [])).toEqual({ verdict: 'behaviour-change', because: [] });
});

const contract = loadContract();
const judging: SideJudging = {
  contract,
  schemaRequirements: indexSchemaRequirements(loadCatalog(), contract.document),
  readings: OPEN_READINGS,
  settleSeconds: 300,
};
const exchange = (status: number, body: unknown): Exchange => ({
  operation: 'getCall',
  request: { method: 'GET', url: 'http://x.invalid/v3/calls/v1.us.x', headers: {} },
  response: { status, headers: { 'content-type': 'application/json' }, body, text: JSON.stringify(body), isJson: true },
  durationMs: 1,
});

test('an unknown id answered as an empty call breaks CALLS-GET-NOT-FOUND; answered not found, it breaks nothing', () => {
  const request: PlannedRequest = {
    operation: 'getCall',
    kind: 'unknown-id',
    label: 'Get Call v1.us.x',
    sessionId: 'v1.us.x',
    unknown: true,
    key: 'full',
  };
  const notFound = exchange(404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'no such call' } });
  const empty = exchange(200, { data: {} });
  expect(violationsOf(request, notFound, empty, judging)).toEqual([]);
  expect(violationsOf(request, empty, notFound, judging).map(({ requirement }) => requirement)).toContain('CALLS-GET-NOT-FOUND');
});

test('the side’s own key refused on the plainest asks breaks AUTH-APIKEY-HEADER; a filtered list or an act for a user refused does not', () => {
  const refused = exchange(401, { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND', message: 'no such key' } });
  const found = exchange(200, { data: { sessionId: 'v1.us.x' } });
  const get: PlannedRequest = { operation: 'getCall', kind: 'get', label: 'Get Call v1.us.x', sessionId: 'v1.us.x', key: 'full' };
  const list: PlannedRequest = { operation: 'listCalls', kind: 'pages', label: 'List Calls', query: {}, key: 'full' };
  const requirements = (request: PlannedRequest, answer: Exchange) =>
    violationsOf(request, answer, found, judging).map(({ requirement }) => requirement);
  expect(requirements(get, refused)).toContain('AUTH-APIKEY-HEADER');
  expect(requirements(list, refused)).toContain('AUTH-APIKEY-HEADER');
  expect(requirements(get, found)).not.toContain('AUTH-APIKEY-HEADER');
  expect(requirements({ ...get, onBehalfOf: 'u1' }, refused)).not.toContain('AUTH-APIKEY-HEADER');
  expect(requirements({ ...list, kind: 'filter', query: { type: 'audio' }, filters: { type: 'audio' } }, refused)).not.toContain(
    'AUTH-APIKEY-HEADER',
  );
});
