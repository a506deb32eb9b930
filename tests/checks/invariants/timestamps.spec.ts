// Order of a call's and its participants' timestamps.
import { test, expect } from '@playwright/test';
import {
  endedNotBeforeStarted,
  joinedWithinCall,
  leftNotBeforeJoined,
  startedNotBeforeInitiated,
} from '../../../core/checks/invariants/timestamps.ts';
import { joinedParticipant, listedCall, neverJoinedParticipant, seen } from '../exchanges.ts';

const withJoined = (changes: Record<string, unknown>): Record<string, unknown> => ({
  ...listedCall(),
  participants: [{ ...joinedParticipant(), ...changes }, neverJoinedParticipant()],
});

test('a call whose timestamps are in order passes every timestamp check', () => {
  const call = seen(listedCall());
  expect([
    ...startedNotBeforeInitiated(call),
    ...endedNotBeforeStarted(call),
    ...leftNotBeforeJoined(call),
    ...joinedWithinCall(call),
  ]).toEqual([]);
});

test('a listed call started before it was initiated breaks CALL-STARTED-NOT-BEFORE-INITIATED', () => {
  expect(startedNotBeforeInitiated(seen({ ...listedCall(), startedAt: 1692368100 }))).toEqual([
    expect.objectContaining({
      check: 'started_not_before_initiated',
      requirement: 'CALL-STARTED-NOT-BEFORE-INITIATED',
      received: '1692368100 at /data/0/startedAt',
    }),
  ]);
});

test('Get Call is not held to started-not-before-initiated, which the specification states of lists', () => {
  expect(startedNotBeforeInitiated(seen({ ...listedCall(), startedAt: 1692368100 }, 'getCall'))).toEqual([]);
});

test('a call ended before it started breaks CALL-ENDED-NOT-BEFORE-STARTED, on a list or on Get Call', () => {
  const call = { ...listedCall(), endedAt: 1692368160 };
  expect(endedNotBeforeStarted(seen(call))).toEqual([
    expect.objectContaining({
      check: 'ended_not_before_started',
      requirement: 'CALL-ENDED-NOT-BEFORE-STARTED',
      received: '1692368160 at /data/0/endedAt',
    }),
  ]);
  expect(endedNotBeforeStarted(seen(call, 'getCall'))).toEqual([
    expect.objectContaining({ requirement: 'CALL-ENDED-NOT-BEFORE-STARTED', received: '1692368160 at /endedAt' }),
  ]);
});

test('a participant who left before joining breaks PARTICIPANT-LEFT-NOT-BEFORE-JOINED', () => {
  expect(leftNotBeforeJoined(seen(withJoined({ leftAt: 1692368167 })))).toEqual([
    expect.objectContaining({
      check: 'left_not_before_joined',
      requirement: 'PARTICIPANT-LEFT-NOT-BEFORE-JOINED',
      received: '1692368167 at /data/0/participants/0/leftAt',
    }),
  ]);
});

test('a participant who joined before the call was initiated breaks PARTICIPANT-JOINED-WITHIN-CALL', () => {
  expect(joinedWithinCall(seen(withJoined({ joinedAt: 1692368159 })))).toEqual([
    expect.objectContaining({
      check: 'joined_within_call',
      requirement: 'PARTICIPANT-JOINED-WITHIN-CALL',
      title: expect.stringContaining('joined before the call was initiated'),
    }),
  ]);
});

test('a participant who left after the call ended breaks PARTICIPANT-JOINED-WITHIN-CALL', () => {
  expect(joinedWithinCall(seen(withJoined({ leftAt: 1692368188 })))).toEqual([
    expect.objectContaining({ requirement: 'PARTICIPANT-JOINED-WITHIN-CALL', title: expect.stringContaining('left after the call ended') }),
  ]);
});

test('without initiatedAt (Get Call), a participant is held to the call start instead', () => {
  const { initiatedAt, ...call } = withJoined({ joinedAt: 1692368165 });
  expect(joinedWithinCall(seen(call, 'getCall'))).toEqual([
    expect.objectContaining({ requirement: 'PARTICIPANT-JOINED-WITHIN-CALL', expected: '1692368168 ≤ joinedAt, leftAt ≤ 1692368187' }),
  ]);
});
