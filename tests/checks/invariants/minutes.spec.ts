// Minute arithmetic of a call and its participants, the call's minutes under each reading.
import { test, expect } from '@playwright/test';
import {
  callDurationIsAudioPlusVideo,
  callMinutesSumOverParticipants,
  minutesNotNegative,
  participantDurationIsAudioPlusVideo,
} from '../../../core/checks/invariants/minutes.ts';
import { OPEN_READINGS, type Readings } from '../../../core/checks/readings.ts';
import { joinedParticipant, listedCall, neverJoinedParticipant, seen } from '../exchanges.ts';

const withJoined = (changes: Record<string, unknown>): Record<string, unknown> => ({
  ...listedCall(),
  participants: [{ ...joinedParticipant(), ...changes }, neverJoinedParticipant()],
});

test('a call whose minutes add up passes every minute check', () => {
  const call = seen(listedCall());
  expect([
    ...callDurationIsAudioPlusVideo(call),
    ...callMinutesSumOverParticipants(call, { readings: OPEN_READINGS }),
    ...minutesNotNegative(call),
    ...participantDurationIsAudioPlusVideo(call),
  ]).toEqual([]);
});

test('minutes rounded to hundredths still add up', () => {
  const call = {
    ...listedCall(),
    totalAudioMinutes: 0.32,
    totalDurationInMinutes: 0.32,
    participants: [{ ...joinedParticipant(), totalAudioMinutes: 0.31, totalDuration: 0.32 }, neverJoinedParticipant()],
  };
  expect([
    ...callDurationIsAudioPlusVideo(seen(call)),
    ...callMinutesSumOverParticipants(seen(call), under('sum-of-entries')),
    ...participantDurationIsAudioPlusVideo(seen(call)),
  ]).toEqual([]);
});

test('a call totalDurationInMinutes that is not audio plus video breaks CALL-DURATION-IS-AUDIO-PLUS-VIDEO', () => {
  expect(callDurationIsAudioPlusVideo(seen({ ...listedCall(), totalDurationInMinutes: 5 }))).toEqual([
    expect.objectContaining({
      check: 'call_duration_is_audio_plus_video',
      requirement: 'CALL-DURATION-IS-AUDIO-PLUS-VIDEO',
      received: '5 at /data/0/totalDurationInMinutes',
    }),
  ]);
});

/** An ended group call of 19 s with two joined entries (19 s and 17 s) and one never joined: its sum and its span differ. */
function groupCall(minutes: { audio: number; video?: number }): Record<string, unknown> {
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
    startedAt: 1692368180,
    endedAt: 1692368199,
    totalAudioMinutes: minutes.audio,
    totalVideoMinutes: minutes.video ?? 0,
    totalDurationInMinutes: minutes.audio + (minutes.video ?? 0),
    participants: [
      entry('user-1', 1692368180, 1692368199),
      entry('user-2', 1692368180, 1692368197),
      { ...neverJoinedParticipant(), uid: 'user-3' },
    ],
  };
}
const SUM = 36 / 60;
const SPAN = 19 / 60;
const under = (...minutes: Readings['minutes']) => ({ readings: { ...OPEN_READINGS, minutes } });

test('call minutes that are the sum over the entries fit sum-of-entries, and the span fits call-span; each passes under its reading', () => {
  expect(callMinutesSumOverParticipants(seen(groupCall({ audio: SUM })), under('sum-of-entries'))).toEqual([]);
  expect(callMinutesSumOverParticipants(seen(groupCall({ audio: SPAN })), under('call-span'))).toEqual([]);
  expect(callMinutesSumOverParticipants(seen(groupCall({ audio: SUM })), under('sum-of-entries', 'call-span'))).toEqual([]);
  expect(callMinutesSumOverParticipants(seen(groupCall({ audio: SPAN })), under('sum-of-entries', 'call-span'))).toEqual([]);
});

test('the span reading takes audio plus video, within a second, and says nothing of a call still running', () => {
  expect(callMinutesSumOverParticipants(seen(groupCall({ audio: SPAN - 0.5 / 60, video: 0 })), under('call-span'))).toEqual([]);
  expect(callMinutesSumOverParticipants(seen(groupCall({ audio: SPAN + 2 / 60 })), under('call-span'))).toHaveLength(1);
  const { endedAt: _running, ...ongoing } = groupCall({ audio: 5 });
  expect(callMinutesSumOverParticipants(seen({ ...ongoing, status: 'ongoing' }), under('call-span'))).toEqual([]);
});

test('a call nobody joined has no minutes under either reading', () => {
  const unanswered = {
    ...listedCall(),
    status: 'unanswered',
    totalAudioMinutes: 0,
    totalDurationInMinutes: 0,
    participants: [neverJoinedParticipant(), { ...neverJoinedParticipant(), uid: 'user-1' }],
  };
  expect(callMinutesSumOverParticipants(seen(unanswered), under('call-span'))).toEqual([]);
  expect(
    callMinutesSumOverParticipants(
      seen({ ...unanswered, totalAudioMinutes: 0.5, totalDurationInMinutes: 0.5 }),
      under('sum-of-entries', 'call-span'),
    ),
  ).toHaveLength(1);
});

test("a call that follows another reading than the target's breaks CALL-MINUTES-SUM-OVER-PARTICIPANTS, naming both", () => {
  expect(callMinutesSumOverParticipants(seen(groupCall({ audio: SPAN })), under('sum-of-entries'))).toEqual([
    expect.objectContaining({
      check: 'call_minutes_sum_over_participants',
      requirement: 'CALL-MINUTES-SUM-OVER-PARTICIPANTS',
      title: expect.stringContaining("its minutes follow the call-span reading, while the target's calls follow sum-of-entries"),
      expected: `sum-of-entries: audio ${SUM}, video 0 (its entries' minutes added up)`,
      received: `totalAudioMinutes ${SPAN}, totalVideoMinutes 0 at /data/0`,
    }),
  ]);
});

test('call minutes that fit no reading break CALL-MINUTES-SUM-OVER-PARTICIPANTS under every reading', () => {
  const violations = callMinutesSumOverParticipants(seen(groupCall({ audio: 2 })), under('sum-of-entries', 'call-span'));
  expect(violations).toEqual([
    expect.objectContaining({
      title: expect.stringContaining('fit no reading'),
      expected: expect.stringContaining("call-span: audio + video = 0.31666666666666665 (the call's span in minutes)"),
    }),
  ]);
  expect(callMinutesSumOverParticipants(seen({ ...listedCall(), totalVideoMinutes: 2 }), under('sum-of-entries'))).toEqual([
    expect.objectContaining({
      requirement: 'CALL-MINUTES-SUM-OVER-PARTICIPANTS',
      received: expect.stringContaining('totalVideoMinutes 2 at /data/0'),
    }),
  ]);
});

test('the sum over participants is not judged when an entry is not an object (the schema check reports it)', () => {
  expect(
    callMinutesSumOverParticipants(
      seen({ ...listedCall(), totalAudioMinutes: 1, participants: [joinedParticipant(), 'user-2'] }),
      under('sum-of-entries', 'call-span'),
    ),
  ).toEqual([]);
});

test('a negative number of minutes on the call or a participant breaks CALL-MINUTES-NOT-NEGATIVE, once per place', () => {
  const call = { ...withJoined({ totalDuration: -0.5 }), totalVideoMinutes: -1 };
  expect(minutesNotNegative(seen(call))).toEqual([
    expect.objectContaining({
      check: 'minutes_not_negative',
      requirement: 'CALL-MINUTES-NOT-NEGATIVE',
      received: '-1 at /data/0/totalVideoMinutes',
    }),
    expect.objectContaining({ requirement: 'CALL-MINUTES-NOT-NEGATIVE', received: '-0.5 at /data/0/participants/0/totalDuration' }),
  ]);
});

test('a participant totalDuration or totalDurationInMinutes that is not audio plus video breaks PARTICIPANT-DURATION-IS-AUDIO-PLUS-VIDEO', () => {
  expect(participantDurationIsAudioPlusVideo(seen(withJoined({ totalDuration: 3 })))).toEqual([
    expect.objectContaining({
      check: 'participant_duration_is_audio_plus_video',
      requirement: 'PARTICIPANT-DURATION-IS-AUDIO-PLUS-VIDEO',
      received: '3 at /data/0/participants/0/totalDuration',
    }),
  ]);
  expect(participantDurationIsAudioPlusVideo(seen(withJoined({ totalDurationInMinutes: 3 })))).toEqual([
    expect.objectContaining({
      requirement: 'PARTICIPANT-DURATION-IS-AUDIO-PLUS-VIDEO',
      received: '3 at /data/0/participants/0/totalDurationInMinutes',
    }),
  ]);
});

test('a Get Call answer points at the call in its own body', () => {
  expect(callDurationIsAudioPlusVideo(seen({ ...listedCall(), totalDurationInMinutes: 5 }, 'getCall'))[0]?.received).toBe(
    '5 at /totalDurationInMinutes',
  );
});
