// The fullAccess rule of mark-unread: a refusal is a 4xx or a result whose data.success is false (the
// words show neither way); a result that says it succeeded, or a server error, is no refusal.
import { test, expect } from '@playwright/test';
import { fullAccessRequired, refusalOf } from '../../core/checks/full-access.ts';
import { exchange } from './exchanges.ts';

const unread = (status: number, body: unknown) => exchange('markGroupConversationAsUnread', status, body);
const result = (success: unknown) => ({ data: { success, message: 'about the messages' } });

test('a 4xx refuses by its status, whatever its body', () => {
  for (const status of [400, 401, 403, 404, 499]) {
    expect(refusalOf(unread(status, { error: { code: 'AUTH_ERR_NO_ACCESS' } }))).toBe('status');
    expect(fullAccessRequired(unread(status, undefined))).toEqual([]);
  }
});

test('a success whose result says success false refuses in its result', () => {
  expect(refusalOf(unread(200, result(false)))).toBe('result');
  expect(refusalOf(unread(202, result(false)))).toBe('result');
  expect(fullAccessRequired(unread(200, result(false)))).toEqual([]);
});

test('a success that says it succeeded, or says nothing of it, accepted the key', () => {
  for (const body of [result(true), result('false'), result(0), { data: {} }, { success: false }, undefined, [result(false)]]) {
    expect(refusalOf(unread(200, body)), JSON.stringify(body)).toBeUndefined();
    expect(fullAccessRequired(unread(200, body))).toEqual([
      expect.objectContaining({ check: 'full_access_required', requirement: 'CHAT-UNREAD-REQUIRES-FULL-ACCESS' }),
    ]);
  }
});

test('a server error or a redirect is no refusal, even with success false', () => {
  for (const status of [500, 503, 302]) expect(fullAccessRequired(unread(status, result(false)))).toHaveLength(1);
});
