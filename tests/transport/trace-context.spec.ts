// The trace headers of every request (core/transport/trace-context.ts): a traceparent W3C Trace
// Context accepts, one trace id per trace and a new parent id per request, and the test's name as a
// header value Node sends.
import { test, expect } from '@playwright/test';
import { validateHeaderValue } from 'node:http';
import { ROOT_CONTEXT, defaultTextMapGetter, trace as otelTrace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  RequestTrace,
  TEST_CASE_HEADER,
  TEST_CASE_LIMIT,
  TRACEPARENT_FORM,
  testCaseName,
  traceIdOf,
  traceWhen,
} from '../../core/transport/trace-context.ts';

/** W3C Trace Context, version 00 (section 3.2): four dash-separated lowercase hex fields, neither id all zeros. */
const W3C_TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const isW3cTraceparent = (value: string): boolean => {
  const match = W3C_TRACEPARENT.exec(value);
  return match !== null && !/^0+$/.test(match[1]!) && !/^0+$/.test(match[2]!);
};

test('each request of a trace carries a valid traceparent with the trace id and a parent id of its own, flagged sampled', () => {
  const trace = new RequestTrace('CALLS-GET-OK a test');
  const sent = Array.from({ length: 200 }, () => trace.headers());
  const parents = new Set<string>();
  for (const headers of sent) {
    const value = headers.traceparent!;
    expect(isW3cTraceparent(value), value).toBe(true);
    expect(TRACEPARENT_FORM.test(value), value).toBe(true);
    expect(value.split('-')[1]).toBe(trace.traceId);
    expect(value.endsWith('-01')).toBe(true);
    parents.add(value.split('-')[2]!);
    expect(headers[TEST_CASE_HEADER]).toBe('CALLS-GET-OK a test');
  }
  expect(parents.size).toBe(sent.length);
  expect(new RequestTrace().traceId).not.toBe(trace.traceId);
  expect(Object.keys(new RequestTrace().headers())).toEqual(['traceparent']);
});

test('the form the suite holds its own traceparent to refuses what W3C refuses', () => {
  const good = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
  expect(TRACEPARENT_FORM.test(good)).toBe(true);
  for (const bad of [
    `00-${'0'.repeat(32)}-${'cd'.repeat(8)}-01`, // trace id all zeros
    `00-${'ab'.repeat(16)}-${'0'.repeat(16)}-01`, // parent id all zeros
    `00-${'AB'.repeat(16)}-${'cd'.repeat(8)}-01`, // upper case
    `ff-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`, // version ff
    `00-${'ab'.repeat(15)}-${'cd'.repeat(8)}-01`, // a short trace id
    `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01-00`, // a field version 00 has not
  ])
    expect([bad, TRACEPARENT_FORM.test(bad)]).toEqual([bad, false]);
});

test('the trace id is read back from any letter case of the header, and from no invalid traceparent', () => {
  const trace = new RequestTrace();
  expect(traceIdOf(trace.headers())).toBe(trace.traceId);
  expect(traceIdOf({ TraceParent: `00-${trace.traceId}-${'cd'.repeat(8)}-00` })).toBe(trace.traceId);
  // A later version may add fields: its first four are read as version 00's.
  expect(traceIdOf({ traceparent: `01-${trace.traceId}-${'cd'.repeat(8)}-01-what-comes-later` })).toBe(trace.traceId);
  expect(traceIdOf({ traceparent: `ff-${trace.traceId}-${'cd'.repeat(8)}-01` })).toBeUndefined();
  expect(traceIdOf({ traceparent: `00-${'0'.repeat(32)}-${'cd'.repeat(8)}-01` })).toBeUndefined();
  expect(traceIdOf({ apikey: '$API_KEY' })).toBeUndefined();
});

test('TRACE_HEADERS=false makes no trace', () => {
  expect(traceWhen(false, 'a test')).toBeUndefined();
  expect(traceWhen(true, 'a test')?.testCase).toBe('a test');
});

test("a test's name becomes a header value: its title, which starts with its requirement id, in visible ASCII and single spaces, bounded", () => {
  expect(testCaseName('CALLS-GET-NOT-FOUND GET /calls/{sessionId} with an unknown id → ERR_CALL_SESSION_NOT_FOUND')).toBe(
    'CALLS-GET-NOT-FOUND GET /calls/{sessionId} with an unknown id -> ERR_CALL_SESSION_NOT_FOUND',
  );
  expect(testCaseName('AUTH-EMPTY-KEY an empty key\tis refused\n(401)')).toBe('AUTH-EMPTY-KEY an empty key is refused (401)');
  expect(testCaseName('Réponse “naïve” ≤ 5 ✓')).toBe('Reponse "naive" <= 5 ?');
  const long = testCaseName(`CALLS-LIST-OK ${'a word '.repeat(100)}`);
  expect(long.length).toBeLessThanOrEqual(TEST_CASE_LIMIT);
  expect(long.endsWith('...')).toBe(true);
  expect(testCaseName(' \u0007 ')).toBe('?');
  expect(testCaseName('   ')).toBe('unnamed');
  for (const title of ['a → b', 'bidi \u202e override', 'nul \u0000 char', 'emoji 😀', 'x'.repeat(1000)]) {
    const value = testCaseName(`ID ${title}`);
    expect(value, title).toMatch(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/);
    expect(() => validateHeaderValue(TEST_CASE_HEADER, value)).not.toThrow();
  }
});

test("OpenTelemetry's W3C Trace Context propagator reads every traceparent the suite sends, ids and sampled flag as sent, and refuses a malformed one", () => {
  const propagator = new W3CTraceContextPropagator();
  const parsed = (traceparent: string) => otelTrace.getSpanContext(propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter));
  const trace = new RequestTrace('CALLS-GET-OK a test');
  for (let request = 0; request < 200; request += 1) {
    const value = trace.headers().traceparent!;
    expect(parsed(value), value).toEqual({
      traceId: trace.traceId,
      spanId: value.split('-')[2],
      traceFlags: 1,
      isRemote: true,
    });
  }
  // The parser does refuse: an all-zero trace id, an upper-case id, a short span id.
  for (const bad of [
    `00-${'0'.repeat(32)}-${'1'.repeat(16)}-01`,
    `00-${'A'.repeat(32)}-${'1'.repeat(16)}-01`,
    `00-${'1'.repeat(32)}-${'1'.repeat(15)}-01`,
  ])
    expect(parsed(bad), bad).toBeUndefined();
});
