// Participant entries: how many, how a never-joined entry looks, one entry per device.
import { test, expect } from '@playwright/test';
import {
  multiDeviceDistinctDevices,
  neverJoinedShape,
  participantsAtMost50,
  totalParticipantsCountsEntries,
} from '../../../core/checks/invariants/participants.ts';
import { OPEN_READINGS, type Readings } from '../../../core/checks/readings.ts';
import { joinedParticipant, listedCall, neverJoinedParticipant, seen } from '../exchanges.ts';

const counting = (...participantCount: Readings['participantCount']) => ({ readings: { ...OPEN_READINGS, participantCount } });

const withParticipants = (participants: Array<Record<string, unknown>>) => ({
  ...listedCall(),
  totalParticipants: participants.length,
  participants,
});
const entries = (count: number) => Array.from({ length: count }, (_, index) => ({ ...neverJoinedParticipant(), uid: `user-${index}` }));

test('a call with one joined and one never-joined participant passes every participant check', () => {
  const call = seen(listedCall());
  expect([
    ...totalParticipantsCountsEntries(call, counting('entries', 'joined-entries')),
    ...participantsAtMost50(call),
    ...neverJoinedShape(call),
    ...multiDeviceDistinctDevices(call),
  ]).toEqual([]);
});

test('totalParticipants counting every entry fits entries, counting the joined ones fits joined-entries; each passes under its reading', () => {
  expect(totalParticipantsCountsEntries(seen(listedCall()), counting('entries'))).toEqual([]);
  expect(totalParticipantsCountsEntries(seen({ ...listedCall(), totalParticipants: 1 }), counting('joined-entries'))).toEqual([]);
  const twoDevices = withParticipants([joinedParticipant(), { ...joinedParticipant(), deviceId: 'device-2' }, neverJoinedParticipant()]);
  expect(totalParticipantsCountsEntries(seen({ ...twoDevices, totalParticipants: 2 }), counting('joined-entries'))).toEqual([]);
});

test('a totalParticipants that fits no count breaks CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES', () => {
  expect(totalParticipantsCountsEntries(seen({ ...listedCall(), totalParticipants: 3 }), counting('entries', 'joined-entries'))).toEqual([
    expect.objectContaining({
      check: 'total_participants_counts_entries',
      requirement: 'CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES',
      title: expect.stringContaining('fits no count'),
      expected: '2 (entries) or 1 (joined-entries)',
      received: '3 at /data/0/totalParticipants',
    }),
  ]);
});

test("a totalParticipants that counts otherwise than the target's calls breaks CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES, naming both", () => {
  expect(totalParticipantsCountsEntries(seen({ ...listedCall(), totalParticipants: 1 }), counting('entries'))).toEqual([
    expect.objectContaining({
      title: expect.stringContaining("totalParticipants counts joined-entries, while the target's calls count entries"),
      expected: '2 (entries)',
    }),
  ]);
});

test('50 users pass, 51 break CALL-PARTICIPANTS-AT-MOST-50; entries past 50 of 50 users or fewer do not, nor a totalParticipants without its entries', () => {
  expect(participantsAtMost50(seen(withParticipants(entries(50))))).toEqual([]);
  expect(participantsAtMost50(seen(withParticipants(entries(51))))).toEqual([
    expect.objectContaining({ check: 'participants_at_most_50', requirement: 'CALL-PARTICIPANTS-AT-MOST-50' }),
  ]);
  // 30 people on two devices each: 60 entries, within the limit when participants are people.
  const twice = entries(30).flatMap((entry) => [entry, { ...entry }]);
  expect(participantsAtMost50(seen(withParticipants(twice)))).toEqual([]);
  expect(participantsAtMost50(seen({ ...listedCall(), totalParticipants: 51 }))).toEqual([]);
});

test('a never-joined entry with a join-only field breaks PARTICIPANT-NEVER-JOINED-SHAPE', () => {
  for (const field of ['deviceId', 'joinedAt', 'leftAt', 'mid']) {
    const call = withParticipants([joinedParticipant(), { ...neverJoinedParticipant(), [field]: joinedParticipant()[field] }]);
    expect(neverJoinedShape(seen(call)), field).toEqual([
      expect.objectContaining({
        check: 'never_joined_shape',
        requirement: 'PARTICIPANT-NEVER-JOINED-SHAPE',
        received: expect.stringContaining('at /data/0/participants/1'),
      }),
    ]);
  }
});

test('a never-joined entry with minutes breaks PARTICIPANT-NEVER-JOINED-SHAPE; zero minutes pass', () => {
  expect(neverJoinedShape(seen(withParticipants([{ ...neverJoinedParticipant(), totalAudioMinutes: 0.5 }])))).toEqual([
    expect.objectContaining({
      requirement: 'PARTICIPANT-NEVER-JOINED-SHAPE',
      received: '{"totalAudioMinutes":0.5} at /data/0/participants/0',
    }),
  ]);
  expect(neverJoinedShape(seen(withParticipants([{ ...neverJoinedParticipant(), totalDuration: 0, totalDurationInMinutes: 0 }])))).toEqual(
    [],
  );
});

test('one user joined from two devices passes; two joined entries sharing a deviceId break CALL-MULTI-DEVICE-DISTINCT-DEVICES', () => {
  expect(
    multiDeviceDistinctDevices(seen(withParticipants([joinedParticipant(), { ...joinedParticipant(), deviceId: 'device-2' }]))),
  ).toEqual([]);
  expect(multiDeviceDistinctDevices(seen(withParticipants([joinedParticipant(), joinedParticipant()])))).toEqual([
    expect.objectContaining({
      check: 'multi_device_distinct_devices',
      requirement: 'CALL-MULTI-DEVICE-DISTINCT-DEVICES',
      received: 'deviceIds ["device-1","device-1"]',
    }),
  ]);
});

test('entries that did not join are not held to distinct devices', () => {
  const left = { ...neverJoinedParticipant(), uid: 'user-1', deviceId: 'device-1' };
  expect(multiDeviceDistinctDevices(seen(withParticipants([joinedParticipant(), left])))).toEqual([]);
});
