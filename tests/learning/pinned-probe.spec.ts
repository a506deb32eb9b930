// A pinned probe's answer, as the participantsCount and "took part" detections read it: a whole answer
// lacking a settled call says the filter left it out; lacking a call that had not ended when sampled,
// nothing (it may have ended since, out of its pinned status, or been joined); holding the call, it
// is judged as the answer shows it, the view the filter matched.
import { test, expect } from '@playwright/test';
import { pinnedAnswer } from '../../core/learning/pinned-probe.ts';
import type { SeenCall } from '../../core/checks/calls-in.ts';
import { listOf, seen } from '../checks/exchanges.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

const kind = { type: 'audio', mode: 'call', receiverType: 'group' };
const call = (sessionId: string, status: string, participants: unknown[] = []) => ({ sessionId, status, ...kind, participants });
const answer = (...calls: Array<Record<string, unknown>>): Exchange => listOf(calls);
const sampled = (call: Record<string, unknown>): SeenCall => seen(call);

test('a whole answer lacking a settled call: not returned, judged on the call as sampled', () => {
  const ended = call('a', 'ended');
  expect(pinnedAnswer(answer(call('b', 'ended')), sampled(ended))).toEqual({ returned: false, total: 1, call: ended });
});

test('a whole answer lacking a call that had not ended when sampled says nothing: it may have ended or been joined since', () => {
  for (const status of ['ongoing', 'initiated'])
    expect(pinnedAnswer(answer(call('b', status)), sampled(call('a', status))), status).toBeUndefined();
});

test('an answer holding the call is judged on its own view of it, which the filter matched', () => {
  const before = call('a', 'ongoing', [{ uid: 'u1', isJoined: true }]);
  const now = call('a', 'ongoing', [
    { uid: 'u1', isJoined: true },
    { uid: 'u2', isJoined: true },
  ]);
  expect(pinnedAnswer(answer(now), sampled(before))).toEqual({ returned: true, total: 1, call: now });
});
