// json_body: every response body is JSON, errors included (HTTP-JSON-BODIES).
import { test, expect } from '@playwright/test';
import { jsonBody } from '../../core/checks/json-body.ts';
import { exchange, listOf, textExchange } from './exchanges.ts';

test('a JSON body passes, success or error', () => {
  expect(jsonBody(listOf())).toEqual([]);
  expect(jsonBody(exchange('getCall', 404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'no such call' } }))).toEqual([]);
});

test('a body that is not JSON breaks HTTP-JSON-BODIES, naming its content type and an excerpt', () => {
  const violations = jsonBody(textExchange('getCall', 502, '<html>Bad gateway</html>'));
  expect(violations).toEqual([expect.objectContaining({ check: 'json_body', requirement: 'HTTP-JSON-BODIES' })]);
  expect(violations[0]?.received).toContain('content-type text/html');
  expect(violations[0]?.received).toContain('<html>Bad gateway</html>');
});

test('an empty error body is not JSON either', () => {
  expect(jsonBody(textExchange('markGroupConversationAsUnread', 401, '', ''))).toEqual([
    expect.objectContaining({ requirement: 'HTTP-JSON-BODIES', expected: 'a JSON body' }),
  ]);
});

test('JSON bytes labelled as another type, or not labelled at all, are not a JSON body', () => {
  const labelled = (contentType: string | undefined) => {
    const base = exchange('getCall', 404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND' } });
    const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
    return jsonBody({ ...base, response: { ...base.response, headers } });
  };
  expect(labelled('application/json; charset=utf-8')).toEqual([]);
  expect(labelled('application/problem+json')).toEqual([]);
  expect(labelled('text/html')).toEqual([expect.objectContaining({ requirement: 'HTTP-JSON-BODIES', received: 'content-type text/html' })]);
  expect(labelled('application/jsonp')).toEqual([expect.objectContaining({ requirement: 'HTTP-JSON-BODIES' })]);
  expect(labelled(undefined)).toEqual([expect.objectContaining({ received: 'content-type (none)' })]);
});

test('JSON whose bytes were not UTF-8 breaks HTTP-JSON-BODIES, however well it parses; the same text from UTF-8 bytes passes', () => {
  const decoded = listOf();
  const notUtf8 = { ...decoded, response: { ...decoded.response, notUtf8: true as const } };
  expect(jsonBody(notUtf8)).toEqual([
    expect.objectContaining({ requirement: 'HTTP-JSON-BODIES', expected: 'a JSON body encoded in UTF-8 (RFC 8259, 8.1)' }),
  ]);
  expect(jsonBody(decoded)).toEqual([]);
});
