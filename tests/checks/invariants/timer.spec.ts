// A call's totalDuration under each reading of its duration, judged only once the call has settled
// on the evidence of the target's own clock; and the reading read off a sample's settled calls.
import { test, expect } from '@playwright/test';
import { callTotalDurationIsItsDuration } from '../../../core/checks/invariants/timer.ts';
import { OPEN_READINGS, timerSeconds, type Readings } from '../../../core/checks/readings.ts';
import { callsIn } from '../../../core/checks/calls-in.ts';
import { detectTimerReading } from '../../../core/learning/call-readings.ts';
import { joinedParticipant, listedCall, listOf, neverJoinedParticipant, seen } from '../exchanges.ts';

/** listedCall ends at 1692368187; an hour later it has settled under the default 300 s. */
const AN_HOUR_LATER = 1692368187 + 3600;
const under = (timer: Readings['timer'], clock?: number) => ({
  readings: { ...OPEN_READINGS, timer },
  ...(clock !== undefined && { clock }),
});
const settledUnder = (timer: Readings['timer']) => under(timer, AN_HOUR_LATER);

/** An ended group call of 19 s whose two joined entries add up to 36 s of minutes: its span and its minutes differ. */
function groupCall(totalDuration: string): Record<string, unknown> {
  const entry = (uid: string, joinedAt: number, leftAt: number) => ({
    ...joinedParticipant(),
    uid,
    joinedAt,
    leftAt,
    totalAudioMinutes: (leftAt - joinedAt) / 60,
    totalDuration: (leftAt - joinedAt) / 60,
    totalDurationInMinutes: (leftAt - joinedAt) / 60,
  });
  return {
    ...listedCall(),
    receiverType: 'group',
    startedAt: 1692368168,
    endedAt: 1692368187,
    totalAudioMinutes: 36 / 60,
    totalDurationInMinutes: 36 / 60,
    totalDuration,
    participants: [
      entry('user-1', 1692368168, 1692368187),
      entry('user-2', 1692368170, 1692368187),
      { ...neverJoinedParticipant(), uid: 'user-3' },
    ],
  };
}

test('a timer reads as seconds only in HH:MM:SS, hours past 99 included', () => {
  expect(timerSeconds('00:00:19')).toBe(19);
  expect(timerSeconds('100:00:01')).toBe(360_001);
  for (const value of ['0:00:19', '00:60:00', '00:00:19.5', 19, undefined, '']) expect(timerSeconds(value)).toBeUndefined();
});

test("a settled call whose timer is its span and its minutes (the deployment's published calls) passes under either reading", () => {
  for (const timer of [['call-span'], ['call-minutes'], ['call-span', 'call-minutes']] as const) {
    expect(callTotalDurationIsItsDuration(seen(listedCall()), settledUnder(timer))).toEqual([]);
  }
});

test('a settled call whose timer fits neither reading breaks CALL-TOTAL-DURATION-IS-ITS-DURATION, with what each reading expects', () => {
  expect(
    callTotalDurationIsItsDuration(seen({ ...listedCall(), totalDuration: '00:19:00' }), settledUnder(['call-span', 'call-minutes'])),
  ).toEqual([
    expect.objectContaining({
      check: 'call_total_duration_is_its_duration',
      requirement: 'CALL-TOTAL-DURATION-IS-ITS-DURATION',
      title: expect.stringContaining('fits no reading of its duration (call-span, call-minutes)'),
      expected: 'call-span: 19 s (endedAt - startedAt), within a second; call-minutes: 19 s (totalDurationInMinutes × 60), within a second',
      received: '"00:19:00" at /data/0/totalDuration',
    }),
  ]);
});

test("a call that follows the other reading than the target's fails, naming the one it follows; a second either way is rounding", () => {
  expect(callTotalDurationIsItsDuration(seen(groupCall('00:00:19')), under(['call-span']))).toEqual([]);
  expect(callTotalDurationIsItsDuration(seen(groupCall('00:00:37')), settledUnder(['call-minutes']))).toEqual([]);
  expect(callTotalDurationIsItsDuration(seen(groupCall('00:00:19')), settledUnder(['call-minutes']))).toEqual([
    expect.objectContaining({
      title: expect.stringContaining("follows the call-span reading, while the target's calls follow call-minutes"),
    }),
  ]);
});

test('a call not yet settled by any clock known is not judged: its timer may still count on', () => {
  const counting = { ...listedCall(), totalDuration: '00:00:07' };
  // Its own answer shows nothing later than its end; the clock learned before is as early.
  expect(callTotalDurationIsItsDuration(seen(counting), under(['call-span']))).toEqual([]);
  expect(callTotalDurationIsItsDuration(seen(counting), under(['call-span'], 1692368187 + 299))).toEqual([]);
  // A call of the same answer that started 300 s after its end is the answer's own clock: settled.
  const newer = { ...listedCall(), sessionId: 'newer', initiatedAt: 1692368487, startedAt: 1692368487, endedAt: 1692368500 };
  const [first] = callsIn(listOf([counting, newer]));
  expect(callTotalDurationIsItsDuration(first!, under(['call-span']))).toEqual([
    expect.objectContaining({ requirement: 'CALL-TOTAL-DURATION-IS-ITS-DURATION', received: '"00:00:07" at /data/0/totalDuration' }),
  ]);
});

test('only an ended call is judged, and a timer that is not HH:MM:SS is left to the schema', () => {
  const ongoing: Record<string, unknown> = { ...listedCall(), status: 'ongoing', totalDuration: '00:19:00' };
  delete ongoing.endedAt;
  expect(callTotalDurationIsItsDuration(seen(ongoing), settledUnder(['call-span', 'call-minutes']))).toEqual([]);
  expect(
    callTotalDurationIsItsDuration(seen({ ...listedCall(), totalDuration: '19:00' }), settledUnder(['call-span', 'call-minutes'])),
  ).toEqual([]);
});

test('the reading is read off the settled calls of a sample only: each answer is its own clock', () => {
  const newer = (sessionId: string, at: number) => ({ ...listedCall(), sessionId, initiatedAt: at, startedAt: at, endedAt: at + 19 });
  // One page: two settled group calls whose timers are their spans, and its newest call, not settled, whose timer counts on.
  const page = callsIn(listOf([newer('newest', 1692368800), groupCall('00:00:19'), { ...groupCall('00:00:19'), sessionId: 'g2' }]));
  const detection = detectTimerReading(page, 300);
  expect(detection.survivors).toEqual(['call-span']);
  expect(detection.accepted).toEqual(['call-span']);
  expect(detection.ruledOut.map((ruled) => ruled.candidate)).toEqual(['call-minutes']);
  expect(detection.evidence).toBe(
    '2 sampled calls, 2 of which tell the readings apart: those of 3 that had settled, their last moment 300 s or more before the newest moment their answer showed',
  );
  // With only the unsettled call, nothing is ruled out.
  const alone = detectTimerReading(callsIn(listOf([{ ...listedCall(), totalDuration: '00:00:02' }])), 300);
  expect(alone.accepted).toEqual(['call-span', 'call-minutes']);
});
