// CALLS-GET-MATCHES-LIST: Get Call and List Calls describe one call alike, on the fields both carry;
// strictly on a call settled by evidence, one way (late fields may be gained later) on one not yet.
import { test, expect } from '@playwright/test';
import { getCallIdentity, compareViews, disagreements } from '../../core/checks/get-matches-list.ts';
import { overTime } from '../../core/checks/settling.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { exchange, joinedParticipant, listedCall, neverJoinedParticipant, seen } from './exchanges.ts';

/** The places two views of a call differ on what both carry, compared strictly (a settled call). */
const differences = (listed: Record<string, unknown>, fetched: Record<string, unknown>) =>
  overTime(listed, fetched, true, 'shared').breaks.map(({ path, earlier, later }) => ({ path, listed: earlier, fetched: later }));

test('the same call listed and fetched has no differences, whether or not Get Call carries the list-only fields', () => {
  const { receiver, initiator, initiatedAt, ...fetched } = listedCall();
  expect(differences(listedCall(), listedCall())).toEqual([]);
  expect(differences(listedCall(), fetched)).toEqual([]);
  expect(differences(listedCall(), { ...listedCall(), metaData: {}, tags: [] })).toEqual([]);
});

test('participant entries are paired by content, in any order', () => {
  expect(differences(listedCall(), { ...listedCall(), participants: [neverJoinedParticipant(), joinedParticipant()] })).toEqual([]);
});

test('a field both carry with different values is a difference at its path, however deep', () => {
  expect(differences(listedCall(), { ...listedCall(), status: 'ongoing' })).toEqual([
    { path: '/status', listed: 'ended', fetched: 'ongoing' },
  ]);
  expect(
    differences(listedCall(), {
      ...listedCall(),
      participants: [{ ...joinedParticipant(), leftAt: 1692368190 }, neverJoinedParticipant()],
    }),
  ).toEqual([{ path: '/participants/0/leftAt', listed: 1692368187, fetched: 1692368190 }]);
});

test('an entry one view lacks, or values of different types, are differences', () => {
  expect(differences(listedCall(), { ...listedCall(), participants: [joinedParticipant()] })).toEqual([
    { path: '/participants/1', listed: neverJoinedParticipant(), fetched: undefined },
  ]);
  expect(differences({ totalDuration: '00:00:19' }, { totalDuration: 19 })).toEqual([
    { path: '/totalDuration', listed: '00:00:19', fetched: 19 },
  ]);
  expect(differences({ participants: [] }, { participants: {} })).toEqual([{ path: '/participants', listed: [], fetched: {} }]);
});

test('disagreements pass when both views agree', () => {
  expect(disagreements(seen(listedCall()), seen(listedCall(), 'getCall'))).toEqual([]);
});

test('a fetched call that disagrees with the list breaks CALLS-GET-MATCHES-LIST, once per place, on the Get Call exchange', () => {
  const fetched = seen({ ...listedCall(), totalAudioMinutes: 0.32, hasRecording: true }, 'getCall');
  const violations = disagreements(seen(listedCall()), fetched);
  expect(violations).toEqual([
    expect.objectContaining({
      check: 'get_matches_list',
      requirement: 'CALLS-GET-MATCHES-LIST',
      expected: '0.31666666666666665 (as listed)',
      received: '0.32 at /totalAudioMinutes (as fetched, later)',
    }),
    expect.objectContaining({
      requirement: 'CALLS-GET-MATCHES-LIST',
      expected: 'false (as listed)',
      received: 'true at /hasRecording (as fetched, later)',
    }),
  ]);
  expect(violations[0]?.exchange).toBe(fetched.exchange);
});

test('a disagreement points into a Get Call body that wraps the call in data', () => {
  const [fetched] = callsIn(exchange('getCall', 200, { data: { ...listedCall(), mode: 'meet' } }));
  expect(disagreements(seen(listedCall()), fetched!)).toEqual([
    expect.objectContaining({ requirement: 'CALLS-GET-MATCHES-LIST', received: '"meet" at /data/mode (as fetched, later)' }),
  ]);
});

test('Get Call answering the call asked for passes; answering another breaks the named requirement', () => {
  const call = listedCall();
  expect(getCallIdentity(exchange('getCall', 200, { data: call }), call.sessionId, 'CALLS-GET-OK')).toEqual([]);
  expect(
    getCallIdentity(exchange('getCall', 200, { data: { ...call, sessionId: 'another' } }), call.sessionId, 'CALLS-GET-ON-BEHALF-OF'),
  ).toEqual([
    expect.objectContaining({ check: 'get_call_identity', requirement: 'CALLS-GET-ON-BEHALF-OF', received: 'sessionId "another"' }),
  ]);
});

test('on a call not yet settled, a later view that gained a recording or minutes is movement, not a disagreement; recordings only Get Call carries are not compared, so not gained', () => {
  const later = seen({ ...listedCall(), totalAudioMinutes: 0.5, hasRecording: true, recordings: [{ rid: 'r1' }] }, 'getCall');
  const { violations, gains } = compareViews(seen(listedCall()), later, false);
  expect(violations).toEqual([]);
  expect(gains.map(({ path }) => path).sort()).toEqual(['/hasRecording', '/totalAudioMinutes']);
});

test('on a call not yet settled, losing a recording, minutes shrinking or any other change still disagrees', () => {
  const earlier = seen({ ...listedCall(), hasRecording: true, totalAudioMinutes: 0.5 });
  const later = seen({ ...listedCall(), hasRecording: false, totalAudioMinutes: 0.4, mode: 'meet' }, 'getCall');
  expect(
    disagreements(earlier, later, false)
      .map(({ title }) => title.split(' at ')[1])
      .sort(),
  ).toEqual(['/hasRecording', '/mode', '/totalAudioMinutes']);
});

test('on a call settled by evidence, even a gain disagrees, and the message says the call had settled', () => {
  const [violation] = disagreements(seen(listedCall()), seen({ ...listedCall(), hasRecording: true }, 'getCall'), true);
  expect(violation?.title).toContain('(a call settled before the first answer)');
});

test('compared the other way round (fetched first), the list answered later is what must have kept the gain', () => {
  const fetched = seen({ ...listedCall(), hasRecording: true }, 'getCall');
  const [violation] = disagreements(fetched, seen(listedCall()), false);
  expect(violation).toEqual(
    expect.objectContaining({ expected: 'true (as fetched)', received: 'false at /data/0/hasRecording (as listed, later)' }),
  );
});
