// The calls that tell most, run before the drawn ones (core/arbitraries/sampled-call.ts): one of each
// kind a fault may single out, a settled one where there is one.
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { tellingCalls } from '../../core/arbitraries/sampled-call.ts';
import type { SeenCall } from '../../core/checks/calls-in.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

const exchange = { request: { method: 'GET', url: 'http://127.0.0.1/v3/calls' } } as unknown as Exchange;
const seen = (sessionId: string, call: Record<string, unknown>): SeenCall => ({
  call: { sessionId, ...call },
  exchange,
  pointer: '/data/0',
});

test('one call of each status, hasRecording and recording carried, the preferred one of a kind where there is one', () => {
  const calls = [
    seen('a', { status: 'ended', hasRecording: true, recordings: [{}] }),
    seen('b', { status: 'ended', hasRecording: false }),
    seen('c', { status: 'ended', hasRecording: false }),
    seen('d', { status: 'ended', hasRecording: true, recordings: [{}] }),
    seen('e', { status: 'rejected', hasRecording: false }),
    seen('f', { status: 'ended', hasRecording: true }),
  ];
  const settled = new Set(['c', 'd']);
  const picked = tellingCalls(calls, ({ call }) => settled.has(String(call.sessionId))).map(({ call }) => call.sessionId);
  expect([...picked].sort()).toEqual(['c', 'd', 'e', 'f']);
  // Each shown as its id and the request that listed it, never whole.
  expect(fc.stringify(tellingCalls(calls, () => false)[0])).toMatch(/^the call "\w" listed by GET http:\/\/127\.0\.0\.1\/v3\/calls$/);
});
