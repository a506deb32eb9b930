// What a planned mark-unread is due, judged as the suite's chat-unread tests judge it: the fullAccess
// key accepted with 200 and JSON, the restricted key refused; a refusal shown by status on one side
// and in the result on the other is a way of answering the words leave open, not a violation.
import { test, expect } from '@playwright/test';
import { markUnreadDue, refusedAnotherWay } from '../../core/diff/mark-unread-due.ts';
import { writePlan } from '../../core/diff/write-plan.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import type { Comparison } from '../../core/diff/diff-tally.ts';

const answer = (status: number, body: unknown, contentType = 'application/json'): Exchange => ({
  operation: 'markGroupConversationAsUnread',
  request: { method: 'DELETE', url: 'http://x.invalid/v3/groups/g/conversation/read', headers: {} },
  response: { status, headers: { 'content-type': contentType }, body, text: JSON.stringify(body ?? ''), isJson: body !== undefined },
  durationMs: 1,
});
const plan = writePlan(7, true, 10);
const request = (kind: string, key = 'full') => plan.find((planned) => planned.kind === kind && planned.key === key)!;
const requirements = (found: ReturnType<typeof markUnreadDue>) => [...new Set(found.map(({ requirement }) => requirement))].sort();
const accepted = answer(200, { data: { success: true, message: 'marked' } });
const forbidden = answer(403, { error: { code: 'AUTH_ERR_NO_ACCESS', message: 'no' } });
const refusedInResult = answer(200, { data: { success: false, message: 'not marked' } });

test('the fullAccess mark: accepted with 200 and JSON; a 204, a refusal of the key in apikey, are named', () => {
  expect(markUnreadDue(request('mark'), accepted)).toEqual([]);
  expect(requirements(markUnreadDue(request('mark'), answer(204, undefined, 'text/plain')))).toEqual(['CHAT-UNREAD-OK']);
  const refused = answer(401, { error: { code: 'AUTH_ERR_EMPTY_APIKEY', message: 'no key' } });
  expect(requirements(markUnreadDue(request('mark'), refused))).toEqual(['AUTH-APIKEY-HEADER', 'CHAT-UNREAD-OK']);
  // Under another letter case of the header its own requirement is judged where the reads' are (classing.ts).
  expect(requirements(markUnreadDue(request('header-case'), refused))).toEqual(['CHAT-UNREAD-OK']);
  // A client's mistake and the cases without a key are not due a success.
  expect(markUnreadDue(request('bad-input'), answer(400, { error: { code: 'ERR_BAD_REQUEST', message: 'x' } }))).toEqual([]);
  expect(markUnreadDue(request('auth', 'none'), forbidden)).toEqual([]);
});

test('the restricted key: a refusal by status or in the result meets the words; acceptance is CHAT-UNREAD-REQUIRES-FULL-ACCESS', () => {
  const restricted = request('full-access', 'restricted');
  expect(requirements(markUnreadDue(restricted, accepted))).toEqual(['CHAT-UNREAD-REQUIRES-FULL-ACCESS']);
  expect(markUnreadDue(restricted, refusedInResult)).toEqual([]);
  expect(requirements(markUnreadDue(restricted, forbidden)).includes('CHAT-UNREAD-REQUIRES-FULL-ACCESS')).toBe(false);
});

test('refused by status on one side and in the result on the other is the open reading; a refusal against an acceptance is not', () => {
  const comparison = (primary: Exchange, candidate: Exchange, kind = 'full-access', key = 'restricted'): { comparison: Comparison } => ({
    comparison: { request: request(kind, key), primary, again: primary, candidate },
  });
  expect(refusedAnotherWay(comparison(forbidden, refusedInResult))).toBe(true);
  expect(refusedAnotherWay(comparison(forbidden, accepted))).toBe(false);
  expect(refusedAnotherWay(comparison(forbidden, forbidden))).toBe(false);
  expect(refusedAnotherWay(comparison(forbidden, refusedInResult, 'mark', 'full'))).toBe(false);
});
