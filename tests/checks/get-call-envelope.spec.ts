// Get Call's envelope: where the call is found in each form the suite accepts, what is not the call
// (a data array of none or several), the envelope learned from the answers fetched alone, and an
// answer in another envelope than the target's failing CALLS-GET-OK.
import { test, expect } from '@playwright/test';
import { callsIn, GET_CALL_ENVELOPES, getCallEnvelope } from '../../core/checks/calls-in.ts';
import { checkExchange } from '../../core/checks/index.ts';
import { getCallEnvelopeConsistency } from '../../core/checks/get-call-envelope.ts';
import { OPEN_READINGS, type Readings } from '../../core/checks/readings.ts';
import { detectGetCallEnvelope } from '../../core/learning/get-call-envelope.ts';
import { GET_ENVELOPES, inEnvelope } from '../../reference/get-envelope.ts';
import { checkContext, exchange, listedCall } from './exchanges.ts';

const call = listedCall();
const answer = (body: unknown) => exchange('getCall', 200, body);
const forms = { 'data-object': { data: call }, 'data-array': { data: [call] }, bare: call } as const;
const under = (...getCallEnvelope: Readings['getCallEnvelope']): Readings => ({ ...OPEN_READINGS, getCallEnvelope });

test('the call is found in each envelope, with the pointer that leads to it', () => {
  expect(getCallEnvelope(forms['data-object'])).toEqual({ envelope: 'data-object', call, pointer: '/data' });
  expect(getCallEnvelope(forms['data-array'])).toEqual({ envelope: 'data-array', call, pointer: '/data/0' });
  expect(getCallEnvelope(forms.bare)).toEqual({ envelope: 'bare', call, pointer: '' });
  expect(callsIn(answer(forms['data-array']))).toEqual([expect.objectContaining({ call, pointer: '/data/0' })]);
});

test('a data array of no call, of two calls, or of something else is not the call', () => {
  for (const data of [[], [call, call], [42], [[call]]])
    expect(getCallEnvelope({ data }), JSON.stringify(data).slice(0, 40)).toBeUndefined();
  expect(callsIn(answer({ data: [call, call] }))).toEqual([]);
  const violations = checkExchange(answer({ data: [call, call] }), checkContext());
  expect(violations.map((violation) => violation.requirement)).toEqual(['CALLS-GET-OK']);
  expect(violations[0]?.title).toContain('must be the call');
});

test('a bare call that carries a data field of its own stays bare', () => {
  expect(getCallEnvelope({ ...call, data: [1, 2] })).toMatchObject({ envelope: 'bare', pointer: '' });
  expect(getCallEnvelope({ ...call, data: {} })).toMatchObject({ envelope: 'bare', pointer: '' });
});

test('every envelope passes every per-answer check while none is learned yet, and a call field breaks its own requirement in each', () => {
  for (const [envelope, body] of Object.entries(forms)) expect(checkExchange(answer(body), checkContext()), envelope).toEqual([]);
  const fax = { ...call, type: 'fax' };
  const violations = checkExchange(answer({ data: [fax] }), checkContext());
  expect(violations).toEqual([expect.objectContaining({ requirement: 'CALL-FIELD-TYPE', received: '"fax" at /data/0/type' })]);
});

test('an answer in an envelope the target does not use fails CALLS-GET-OK, naming both', () => {
  expect(getCallEnvelopeConsistency(answer(forms['data-array']), { readings: under('data-array') })).toEqual([]);
  const [violation, ...more] = getCallEnvelopeConsistency(answer(forms.bare), { readings: under('data-object') });
  expect(more).toEqual([]);
  expect(violation).toMatchObject({
    check: 'get_call_envelope_consistency',
    requirement: 'CALLS-GET-OK',
    received: 'the call bare (the body is the call)',
  });
  expect(violation?.expected).toContain('{"data": call}');
  // Errors, lists and answers with no call are other checks' business.
  expect(
    getCallEnvelopeConsistency(exchange('getCall', 404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND' } }), {
      readings: under('data-object'),
    }),
  ).toEqual([]);
  expect(getCallEnvelopeConsistency(answer({ data: [] }), { readings: under('bare') })).toEqual([]);
});

test('the envelope every answer uses is learned, the others ruled out by the first answer that shows it', () => {
  const detection = detectGetCallEnvelope([answer(forms['data-array']), answer({ data: [{ ...call, sessionId: 'second' }] })]);
  expect(detection).toMatchObject({
    subject: 'get-call-envelope',
    survivors: ['data-array'],
    accepted: ['data-array'],
    evidence: '2 Get Call answers, 2 of which carry a call',
  });
  expect(detection.ruledOut.map(({ candidate }) => candidate)).toEqual(['data-object', 'bare']);
  expect(detection.ruledOut[0]?.reason).toBe(
    `call "${String(call.sessionId)}" was answered the one item of a data array ({"data": [call]})`,
  );
  expect(detection.exchanges).toEqual([]);
});

test('answers in different envelopes: none survives, and Get Call is judged by the one most answers use', () => {
  const mixed = detectGetCallEnvelope([answer(forms.bare), answer(forms['data-object']), answer(forms.bare)]);
  expect(mixed.survivors).toEqual([]);
  expect(mixed.accepted).toEqual(['bare']);
  // A tie goes to the deployment's current form.
  expect(detectGetCallEnvelope([answer(forms.bare), answer(forms['data-object'])]).accepted).toEqual(['data-object']);
});

test('answers that carry no call say nothing of the envelope: every envelope survives', () => {
  const detection = detectGetCallEnvelope([
    exchange('getCall', 404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND' } }),
    answer({ data: [call, call] }),
  ]);
  expect(detection).toMatchObject({
    survivors: ['data-object', 'data-array', 'bare'],
    accepted: ['data-object', 'data-array', 'bare'],
    evidence: '2 Get Call answers, 0 of which carry a call',
  });
  expect(detectGetCallEnvelope([]).evidence).toBe('no call was fetched alone');
});

test('the reference can answer in every envelope the suite accepts, and in no other, each found where it put the call', () => {
  expect([...GET_ENVELOPES].sort()).toEqual([...GET_CALL_ENVELOPES].sort());
  for (const envelope of GET_ENVELOPES) expect(getCallEnvelope(inEnvelope(call, envelope))).toMatchObject({ envelope, call });
});
