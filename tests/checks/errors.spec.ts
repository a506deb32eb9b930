// Error answers: the code found wherever the body carries it, the deployment's status, no 5xx for
// a client's mistake, and success where success is due.
import { test, expect } from '@playwright/test';
import {
  errorCode,
  errorStatus,
  errorAnswerSeen,
  errorCodesIn,
  answerErrorCodes,
  noServerError,
  successStatus,
} from '../../core/checks/errors.ts';
import { exchange, listOf, textExchange } from './exchanges.ts';

const notFound = (status: number, body: unknown = { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'no such call' } }) =>
  exchange('getCall', status, body);

test('errorCodesIn finds UPPER_SNAKE_CASE strings in any shape, nearest first', () => {
  expect(errorCodesIn({ error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'Not found' } })).toEqual(['ERR_CALL_SESSION_NOT_FOUND']);
  expect(errorCodesIn({ code: 'AUTH_ERR_EMPTY_APIKEY' })).toEqual(['AUTH_ERR_EMPTY_APIKEY']);
  expect(errorCodesIn({ errors: [{ code: 'AUTH_ERR_NO_ACCESS' }], code: 'AUTH_ERR_APIKEY_NOT_FOUND' })).toEqual([
    'AUTH_ERR_APIKEY_NOT_FOUND',
    'AUTH_ERR_NO_ACCESS',
  ]);
  expect(errorCodesIn('ERR_CALL_SESSION_NOT_FOUND')).toEqual(['ERR_CALL_SESSION_NOT_FOUND']);
});

test('errorCodesIn ignores words without an underscore, lower case, and what is nested too deep', () => {
  expect(errorCodesIn({ error: { code: 'ERROR', message: 'err_call_session_not_found', detail: 'Not_Found' } })).toEqual([]);
  expect(errorCodesIn({ a: { b: { c: { d: { code: 'ERR_TOO_DEEP' } } } } })).toEqual([]);
  expect(errorCodesIn(undefined)).toEqual([]);
});

test('an error answer carrying the code passes errorCode, whatever its shape and status', () => {
  expect(errorCode(notFound(404), 'ERR_CALL_SESSION_NOT_FOUND', 'CALLS-GET-NOT-FOUND')).toEqual([]);
  expect(errorCode(notFound(400, { code: 'ERR_CALL_SESSION_NOT_FOUND' }), 'ERR_CALL_SESSION_NOT_FOUND', 'CALLS-GET-NOT-FOUND')).toEqual([]);
});

test('an error answer with another code breaks the requirement given, listing the codes received', () => {
  expect(
    errorCode(notFound(401, { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND' } }), 'ERR_CALL_SESSION_NOT_FOUND', 'CALLS-GET-NOT-FOUND'),
  ).toEqual([
    expect.objectContaining({
      check: 'error_code',
      requirement: 'CALLS-GET-NOT-FOUND',
      received: expect.stringMatching(/^status 401, codes AUTH_ERR_APIKEY_NOT_FOUND, body /),
    }),
  ]);
});

test('a success carrying the code, or an error without any code, breaks the requirement given', () => {
  expect(errorCode(notFound(200), 'ERR_CALL_SESSION_NOT_FOUND', 'CALLS-GET-NOT-FOUND')).toEqual([
    expect.objectContaining({ requirement: 'CALLS-GET-NOT-FOUND' }),
  ]);
  expect(errorCode(textExchange('getCall', 404, 'Not Found', 'text/plain'), 'ERR_CALL_SESSION_NOT_FOUND', 'CALLS-GET-NOT-FOUND')).toEqual([
    expect.objectContaining({ requirement: 'CALLS-GET-NOT-FOUND', received: 'status 404, no error code, body "Not Found"' }),
  ]);
});

test('the deployment status for a code passes errorStatus, and so does a code with no deployed status', () => {
  expect(errorStatus(notFound(404), 'ERR_CALL_SESSION_NOT_FOUND')).toEqual([]);
  expect(errorStatus(exchange('listCalls', 401, {}), 'AUTH_ERR_EMPTY_APIKEY')).toEqual([]);
  expect(errorStatus(exchange('markGroupConversationAsUnread', 403, {}), 'AUTH_ERR_NO_ACCESS')).toEqual([]);
  expect(errorStatus(notFound(418), 'ERR_SOMETHING_ELSE')).toEqual([]);
});

test('another status for a code breaks ERROR-STATUS-CODES', () => {
  expect(errorStatus(notFound(400), 'ERR_CALL_SESSION_NOT_FOUND')).toEqual([
    expect.objectContaining({
      check: 'error_status',
      requirement: 'ERROR-STATUS-CODES',
      expected: "status 404, the deployment's",
      received: 'status 400',
    }),
  ]);
  expect(errorStatus(exchange('listCalls', 403, {}), 'AUTH_ERR_APIKEY_NOT_FOUND')).toEqual([
    expect.objectContaining({ requirement: 'ERROR-STATUS-CODES' }),
  ]);
});

test('a client error or a success passes noServerError', () => {
  expect(noServerError(exchange('listCalls', 400, {}), 'a bad filter')).toEqual([]);
  expect(noServerError(exchange('listCalls', 499, {}), 'a bad filter')).toEqual([]);
  expect(noServerError(listOf(), 'a bad filter')).toEqual([]);
});

test('a 5xx answer to a client mistake breaks ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT', () => {
  expect(noServerError(textExchange('listCalls', 500, 'Internal Server Error', 'text/plain'), 'type=fax')).toEqual([
    expect.objectContaining({
      check: 'no_server_error',
      requirement: 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT',
      title: 'type=fax answered a server error',
    }),
  ]);
});

test('successStatus passes any 2xx, or exactly the status asked for', () => {
  expect(successStatus(listOf(), 'CALLS-LIST-OK', 'List Calls')).toEqual([]);
  expect(successStatus(exchange('getCall', 204, {}), 'CALLS-GET-OK', 'Get Call')).toEqual([]);
  expect(successStatus(exchange('markGroupConversationAsUnread', 200, {}), 'CHAT-UNREAD-OK', 'mark-unread', 200)).toEqual([]);
});

test('an answer outside 2xx, or other than the status asked for, breaks the requirement given', () => {
  expect(successStatus(exchange('listCalls', 400, {}), 'CALLS-LIST-OK', 'List Calls')).toEqual([
    expect.objectContaining({
      check: 'success_status',
      requirement: 'CALLS-LIST-OK',
      expected: 'status 2xx',
      title: 'List Calls was not answered with a 2xx status',
    }),
  ]);
  expect(successStatus(exchange('listCalls', 300, {}), 'CALLS-LIST-OK', 'List Calls')).toEqual([
    expect.objectContaining({ requirement: 'CALLS-LIST-OK' }),
  ]);
  expect(successStatus(exchange('markGroupConversationAsUnread', 204, {}), 'CHAT-UNREAD-OK', 'mark-unread', 200)).toEqual([
    expect.objectContaining({ requirement: 'CHAT-UNREAD-OK', expected: 'status 200' }),
  ]);
});

test('an error answer is described by what it showed: the code only when it carried it, else the request it answered, its status and what it carried', () => {
  expect(
    errorAnswerSeen(
      exchange('listCalls', 401, { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND' } }),
      'AUTH_ERR_APIKEY_NOT_FOUND',
      'an unknown key',
    ),
  ).toBe('AUTH_ERR_APIKEY_NOT_FOUND: status 401');
  expect(errorAnswerSeen(textExchange('listCalls', 200, 'ok', 'text/plain'), 'AUTH_ERR_APIKEY_NOT_FOUND', 'an unknown key')).toBe(
    'the answer to an unknown key was status 200 and carried no error code',
  );
  expect(
    errorAnswerSeen(exchange('listCalls', 403, { error: { code: 'AUTH_ERR_NO_ACCESS' } }), 'AUTH_ERR_APIKEY_NOT_FOUND', 'an unknown key'),
  ).toBe('the answer to an unknown key was status 403 and carried AUTH_ERR_NO_ACCESS, not AUTH_ERR_APIKEY_NOT_FOUND');
  expect(errorAnswerSeen(exchange('getCall', 200, { data: {} }), 'ERR_CALL_SESSION_NOT_FOUND')).toBe(
    'the answer to a request due to answer ERR_CALL_SESSION_NOT_FOUND was status 200 and carried no error code',
  );
});

test('errorStatus never says a code was answered that no answer carried', () => {
  const [violation] = errorStatus(textExchange('listCalls', 200, 'ok', 'text/plain'), 'AUTH_ERR_APIKEY_NOT_FOUND', 'an unknown key');
  expect(violation).toMatchObject({
    title: 'the answer to an unknown key was status 200 and carried no error code',
    received: 'status 200',
  });
  expect(JSON.stringify(errorStatus(textExchange('listCalls', 200, 'ok', 'text/plain'), 'AUTH_ERR_APIKEY_NOT_FOUND'))).not.toContain(
    'AUTH_ERR_APIKEY_NOT_FOUND answered',
  );
  expect(
    errorStatus(
      exchange('listCalls', 400, { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND' } }),
      'AUTH_ERR_APIKEY_NOT_FOUND',
      'an unknown key',
    )[0]?.title,
  ).toBe('AUTH_ERR_APIKEY_NOT_FOUND answered status 400');
});

test("answerErrorCodes walks an error answer, a refusal in a result and an error envelope answered 2xx, never a success's data", () => {
  const carrying = { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND' } };
  expect(answerErrorCodes(exchange('listCalls', 401, carrying))).toEqual(['AUTH_ERR_APIKEY_NOT_FOUND']);
  expect(answerErrorCodes(exchange('getCall', 302, carrying))).toEqual(['AUTH_ERR_APIKEY_NOT_FOUND']);
  expect(
    answerErrorCodes(exchange('markGroupConversationAsUnread', 200, { data: { success: false, code: 'AUTH_ERR_NO_ACCESS' } })),
  ).toEqual(['AUTH_ERR_NO_ACCESS']);
  // An error envelope with a success's status: still an error answer, judged on its code.
  expect(answerErrorCodes(exchange('getCall', 200, carrying))).toEqual(['AUTH_ERR_APIKEY_NOT_FOUND']);
  expect(answerErrorCodes(exchange('listCalls', 200, { data: [{ sessionId: 'ERR_CALL_SESSION_NOT_FOUND' }] }))).toEqual([]);
  expect(answerErrorCodes(exchange('markGroupConversationAsUnread', 200, { data: { success: true, code: 'AUTH_ERR_NO_ACCESS' } }))).toEqual(
    [],
  );
  // Not walked at all: a success whose body throws when read is never read.
  const untouchable = Object.defineProperty({}, 'data', {
    enumerable: true,
    get: () => {
      throw new Error('a success body was walked for error codes');
    },
  });
  const answering = (status: number) => {
    const made = exchange('listCalls', status, {});
    return { ...made, response: { ...made.response, body: untouchable } };
  };
  expect(answerErrorCodes(answering(200))).toEqual([]);
  expect(() => answerErrorCodes(answering(500))).toThrow('walked');
});
