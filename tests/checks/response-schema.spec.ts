// response_schema_conformance: every body against the contract, each violation attributed to the
// requirement of the field (or envelope) it breaks, with the value and schema paths.
import { test, expect } from '@playwright/test';
import { responseSchemaConformance } from '../../core/checks/response-schema.ts';
import { callList, checkContext, exchange, joinedParticipant, listedCall, listOf, textExchange } from './exchanges.ts';

const context = checkContext();
const check = (operation: Parameters<typeof exchange>[0], status: number, body: unknown) =>
  responseSchemaConformance(exchange(operation, status, body), context);
const requirementsOf = (operation: Parameters<typeof exchange>[0], status: number, body: unknown) =>
  check(operation, status, body).map((violation) => violation.requirement);
const listRequirements = (call: Record<string, unknown>) => requirementsOf('listCalls', 200, callList([call]));

test('a conforming list page, Get Call answer, mark-unread result and error body pass', () => {
  expect(check('listCalls', 200, callList())).toEqual([]);
  expect(check('getCall', 200, listedCall())).toEqual([]);
  expect(check('getCall', 200, { data: listedCall() })).toEqual([]);
  expect(check('markGroupConversationAsUnread', 200, { data: { success: true, message: 'marked' } })).toEqual([]);
  expect(check('getCall', 404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'no such call' } })).toEqual([]);
});

test('a body that is not JSON is left to json_body', () => {
  expect(responseSchemaConformance(textExchange('listCalls', 200, 'not json'), context)).toEqual([]);
});

test('a listed call of type fax breaks CALL-FIELD-TYPE, with the value and schema paths', () => {
  const violations = check('listCalls', 200, callList([{ ...listedCall(), type: 'fax' }]));
  expect(violations).toEqual([expect.objectContaining({ check: 'response_schema_conformance', requirement: 'CALL-FIELD-TYPE' })]);
  expect(violations[0]?.expected).toContain('#/components/schemas/CallType/enum');
  expect(violations[0]?.received).toBe('"fax" at /data/0/type');
});

test('a participant totalAudioMinutes that is not a number breaks PARTICIPANT-FIELD-TOTAL-AUDIO-MINUTES', () => {
  const call = { ...listedCall(), participants: [{ ...joinedParticipant(), totalAudioMinutes: 'x' }] };
  const violations = check('listCalls', 200, callList([call]));
  expect(violations.map((violation) => violation.requirement)).toEqual(['PARTICIPANT-FIELD-TOTAL-AUDIO-MINUTES']);
  expect(violations[0]?.received).toBe('"x" at /data/0/participants/0/totalAudioMinutes');
  expect(violations[0]?.expected).toContain('#/components/schemas/Minutes/type');
});

test('a call without totalDuration breaks CALL-FIELD-TOTAL-DURATION-TIMER', () => {
  const { totalDuration, ...call } = listedCall();
  const violations = check('listCalls', 200, callList([call]));
  expect(violations.map((violation) => violation.requirement)).toEqual(['CALL-FIELD-TOTAL-DURATION-TIMER']);
  expect(violations[0]?.title).toContain('totalDuration');
  expect(violations[0]?.expected).toContain('#/components/schemas/Call/required');
});

test('a call totalDuration of 1:2:3 breaks CALL-FIELD-TOTAL-DURATION-TIMER at the Timer pattern', () => {
  const violations = check('listCalls', 200, callList([{ ...listedCall(), totalDuration: '1:2:3' }]));
  expect(violations).toEqual([
    expect.objectContaining({ requirement: 'CALL-FIELD-TOTAL-DURATION-TIMER', received: '"1:2:3" at /data/0/totalDuration' }),
  ]);
  expect(violations[0]?.expected).toContain('#/components/schemas/Timer/pattern');
});

test('a shared schema still names the field: a call totalVideoMinutes that is not a number breaks CALL-FIELD-TOTAL-VIDEO-MINUTES', () => {
  expect(listRequirements({ ...listedCall(), totalVideoMinutes: '0' })).toEqual(['CALL-FIELD-TOTAL-VIDEO-MINUTES']);
});

test('a listed call without its list-only receiver breaks CALL-FIELD-RECEIVER', () => {
  const { receiver, ...call } = listedCall();
  expect(listRequirements(call)).toEqual(['CALL-FIELD-RECEIVER']);
});

test('a participant without uid breaks PARTICIPANT-FIELD-UID, one in a bad state PARTICIPANT-FIELD-STATE', () => {
  const { uid, ...withoutUid } = joinedParticipant();
  expect(listRequirements({ ...listedCall(), participants: [withoutUid] })).toEqual(['PARTICIPANT-FIELD-UID']);
  expect(listRequirements({ ...listedCall(), participants: [{ ...joinedParticipant(), state: 'asleep' }] })).toEqual([
    'PARTICIPANT-FIELD-STATE',
  ]);
});

test('participants that are not a list, or an entry that is not an object, break CALL-FIELD-PARTICIPANTS', () => {
  expect(listRequirements({ ...listedCall(), participants: {} })).toEqual(['CALL-FIELD-PARTICIPANTS']);
  expect(listRequirements({ ...listedCall(), participants: ['user-1'] })).toEqual(['CALL-FIELD-PARTICIPANTS']);
});

test('every violation in a body is reported, not just the first', () => {
  expect(listRequirements({ ...listedCall(), type: 'fax', mode: 'broadcast', hasRecording: 'no' }).sort()).toEqual([
    'CALL-FIELD-HAS-RECORDING',
    'CALL-FIELD-MODE',
    'CALL-FIELD-TYPE',
  ]);
});

test('a list without meta breaks PAGINATION-ENVELOPE', () => {
  const violations = check('listCalls', 200, { data: [listedCall()] });
  expect(violations.map((violation) => violation.requirement)).toEqual(['PAGINATION-ENVELOPE']);
  expect(violations[0]?.received).toContain(' at /');
});

test('a pagination total that is not an integer, or data that is not a list, breaks PAGINATION-ENVELOPE', () => {
  const body = callList();
  body.meta.pagination.total = '1';
  expect(requirementsOf('listCalls', 200, body)).toEqual(['PAGINATION-ENVELOPE']);
  expect(requirementsOf('listCalls', 200, { ...callList(), data: {} })).toEqual(['PAGINATION-ENVELOPE']);
});

test('Get Call with a bad field bare or in data breaks that field requirement, pointing into the body', () => {
  const bare = check('getCall', 200, { ...listedCall(), status: 'paused' });
  expect(bare).toEqual([expect.objectContaining({ requirement: 'CALL-FIELD-STATUS', received: '"paused" at /status' })]);
  const wrapped = check('getCall', 200, { data: { ...listedCall(), status: 'paused' } });
  expect(wrapped).toEqual([expect.objectContaining({ requirement: 'CALL-FIELD-STATUS', received: '"paused" at /data/status' })]);
  expect(wrapped[0]?.expected).toContain('#/components/schemas/CallStatus/enum');
});

test('Get Call does not require the list-only fields', () => {
  const { receiver, initiator, initiatedAt, ...call } = listedCall();
  expect(check('getCall', 200, { data: call })).toEqual([]);
});

test('Get Call answering something other than an object breaks CALLS-GET-OK', () => {
  expect(check('getCall', 200, [listedCall()])).toEqual([
    expect.objectContaining({ requirement: 'CALLS-GET-OK', received: expect.stringContaining(' at /') }),
  ]);
});

test('an error answer whose body is {code} breaks ERROR-BODY-SHAPE', () => {
  const violations = check('listCalls', 401, { code: 'X' });
  expect(violations.map((violation) => violation.requirement)).toEqual(['ERROR-BODY-SHAPE']);
  expect(violations[0]?.expected).toContain('#/components/schemas/Error/required');
});

test('an error body without its code breaks ERROR-BODY-SHAPE, also for Get Call', () => {
  expect(requirementsOf('getCall', 404, { error: { message: 'no such call' } })).toEqual(['ERROR-BODY-SHAPE']);
});

test('a mark-unread result with success "yes" breaks CHAT-UNREAD-RESULT-SHAPE', () => {
  const violations = check('markGroupConversationAsUnread', 200, { data: { success: 'yes', message: 'm' } });
  expect(violations).toEqual([expect.objectContaining({ requirement: 'CHAT-UNREAD-RESULT-SHAPE', received: '"yes" at /data/success' })]);
});

test('every violation carries its exchange', () => {
  const sent = listOf([{ ...listedCall(), type: 'fax' }]);
  expect(responseSchemaConformance(sent, context)[0]?.exchange).toBe(sent);
});

test('a success with an unexpected 2xx status is held to the success body, not to the error body', () => {
  expect(check('listCalls', 201, callList([listedCall()]))).toEqual([]);
  expect(check('markGroupConversationAsUnread', 201, { data: { success: true, message: 'marked' } })).toEqual([]);
});

test('a field missing from a call wrapped in data is placed at /data, without a trailing slash', () => {
  const { mode, ...call } = listedCall();
  expect(check('getCall', 200, { data: call })).toEqual([
    expect.objectContaining({ requirement: 'CALL-FIELD-MODE', received: 'no property mode at /data' }),
  ]);
});

test('a bare call that carries an extra data object is read as bare: only its missing sessionId is reported', () => {
  const { sessionId, ...call } = listedCall();
  expect(requirementsOf('getCall', 200, { ...call, data: { note: 'an extension' } })).toEqual(['CALL-FIELD-SESSION-ID']);
});

test('a list item that is not an object is reported once', () => {
  expect(requirementsOf('listCalls', 200, callList([5 as unknown as Record<string, unknown>]))).toEqual(['CALLS-LIST-OK']);
});
