// content_type: mark-unread answers application/json (CHAT-UNREAD-OK).
import { test, expect } from '@playwright/test';
import { contentType } from '../../core/checks/content-type.ts';
import { shown } from '../../core/checks/violation.ts';
import { exchange, textExchange } from './exchanges.ts';

test('an answer labelled application/json passes, with a charset or in capitals too', () => {
  const labelled = (value: string) => {
    const answer = exchange('markGroupConversationAsUnread', 200, { data: { success: true, message: 'ok' } });
    return { ...answer, response: { ...answer.response, headers: { 'content-type': value } } };
  };
  expect(contentType(labelled('application/json'))).toEqual([]);
  expect(contentType(labelled('application/json; charset=utf-8'))).toEqual([]);
  expect(contentType(labelled('Application/JSON'))).toEqual([]);
});

test('an answer labelled otherwise, or not at all, breaks CHAT-UNREAD-OK, naming what it was labelled', () => {
  expect(contentType(textExchange('markGroupConversationAsUnread', 200, '{}', 'text/plain'))).toEqual([
    expect.objectContaining({
      check: 'content_type',
      requirement: 'CHAT-UNREAD-OK',
      title: 'mark-unread did not answer application/json',
      received: `content-type ${shown('text/plain')}`,
    }),
  ]);
  const unlabelled = textExchange('markGroupConversationAsUnread', 200, '{}');
  expect(contentType({ ...unlabelled, response: { ...unlabelled.response, headers: {} } })[0]?.received).toBe(`content-type ${shown('')}`);
});
