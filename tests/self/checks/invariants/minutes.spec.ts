// Minute arithmetic of a call and its participants.
import { test, expect } from '@playwright/test';
import { callDurationIsAudioPlusVideo, callMinutesSumOverParticipants, minutesNotNegative, participantDurationIsAudioPlusVideo } from '../../../../fixtures/checks/invariants/minutes.ts';
import { joinedParticipant, listedCall, neverJoinedParticipant, seen } from '../exchanges.ts';

const withJoined = (changes: Record<string, unknown>): Record<string, unknown> => ({ ...listedCall(), participants: [{ ...joinedParticipant(), ...changes }, neverJoinedParticipant()] });

test('a call whose minutes add up passes every minute check', () => {
  const call = seen(listedCall());
  expect([...callDurationIsAudioPlusVideo(call), ...callMinutesSumOverParticipants(call), ...minutesNotNegative(call), ...participantDurationIsAudioPlusVideo(call)]).toEqual([]);
});

test('minutes rounded to hundredths still add up', () => {
  const call = { ...listedCall(), totalAudioMinutes: 0.32, totalDurationInMinutes: 0.32, participants: [{ ...joinedParticipant(), totalAudioMinutes: 0.31, totalDuration: 0.32 }, neverJoinedParticipant()] };
  expect([...callDurationIsAudioPlusVideo(seen(call)), ...callMinutesSumOverParticipants(seen(call)), ...participantDurationIsAudioPlusVideo(seen(call))]).toEqual([]);
});

test('a call totalDurationInMinutes that is not audio plus video breaks CALL-DURATION-IS-AUDIO-PLUS-VIDEO', () => {
  expect(callDurationIsAudioPlusVideo(seen({ ...listedCall(), totalDurationInMinutes: 5 }))).toEqual([
    expect.objectContaining({ check: 'call_duration_is_audio_plus_video', requirement: 'CALL-DURATION-IS-AUDIO-PLUS-VIDEO', received: '5 at /data/0/totalDurationInMinutes' }),
  ]);
});

test('a call totalAudioMinutes or totalVideoMinutes that is not the sum over participants breaks CALL-MINUTES-SUM-OVER-PARTICIPANTS', () => {
  expect(callMinutesSumOverParticipants(seen({ ...listedCall(), totalAudioMinutes: 1 }))).toEqual([
    expect.objectContaining({ check: 'call_minutes_sum_over_participants', requirement: 'CALL-MINUTES-SUM-OVER-PARTICIPANTS', received: '1 at /data/0/totalAudioMinutes' }),
  ]);
  expect(callMinutesSumOverParticipants(seen({ ...listedCall(), totalVideoMinutes: 2 }))).toEqual([
    expect.objectContaining({ requirement: 'CALL-MINUTES-SUM-OVER-PARTICIPANTS', received: '2 at /data/0/totalVideoMinutes' }),
  ]);
});

test('the sum over participants is not judged when an entry is not an object (the schema check reports it)', () => {
  expect(callMinutesSumOverParticipants(seen({ ...listedCall(), totalAudioMinutes: 1, participants: [joinedParticipant(), 'user-2'] }))).toEqual([]);
});

test('a negative number of minutes on the call or a participant breaks CALL-MINUTES-NOT-NEGATIVE, once per place', () => {
  const call = { ...withJoined({ totalDuration: -0.5 }), totalVideoMinutes: -1 };
  expect(minutesNotNegative(seen(call))).toEqual([
    expect.objectContaining({ check: 'minutes_not_negative', requirement: 'CALL-MINUTES-NOT-NEGATIVE', received: '-1 at /data/0/totalVideoMinutes' }),
    expect.objectContaining({ requirement: 'CALL-MINUTES-NOT-NEGATIVE', received: '-0.5 at /data/0/participants/0/totalDuration' }),
  ]);
});

test('a participant totalDuration or totalDurationInMinutes that is not audio plus video breaks PARTICIPANT-DURATION-IS-AUDIO-PLUS-VIDEO', () => {
  expect(participantDurationIsAudioPlusVideo(seen(withJoined({ totalDuration: 3 })))).toEqual([
    expect.objectContaining({ check: 'participant_duration_is_audio_plus_video', requirement: 'PARTICIPANT-DURATION-IS-AUDIO-PLUS-VIDEO', received: '3 at /data/0/participants/0/totalDuration' }),
  ]);
  expect(participantDurationIsAudioPlusVideo(seen(withJoined({ totalDurationInMinutes: 3 })))).toEqual([
    expect.objectContaining({ requirement: 'PARTICIPANT-DURATION-IS-AUDIO-PLUS-VIDEO', received: '3 at /data/0/participants/0/totalDurationInMinutes' }),
  ]);
});

test('a Get Call answer points at the call in its own body', () => {
  expect(callDurationIsAudioPlusVideo(seen({ ...listedCall(), totalDurationInMinutes: 5 }, 'getCall'))[0]?.received).toBe('5 at /totalDurationInMinutes');
});
