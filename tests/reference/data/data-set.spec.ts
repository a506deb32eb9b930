// The reference data set: deterministic from its seed, covering every kind of call the
// specification describes, and consistent with every invariant the catalog derives from it.
import { test, expect } from '@playwright/test';
import { generateDataSet } from '../../../reference/data/generate.ts';
import { timer } from '../../../reference/data/calls.ts';
import { DATA_NOW } from '../../../reference/data/directory.ts';
import { CALL_MODES, CALL_STATUSES, CALL_TYPES, RECEIVER_TYPES, type Call } from '../../../reference/model.ts';
import { OUTSIDER_UID, UNREAD_FIXTURE } from '../../../reference/fixtures.ts';
import { loadContract } from '../../../openapi/contract.ts';

const contract = loadContract();
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

test('the same seed gives the same data set, another seed another one', () => {
  const calls = (seed: number) => {
    const data = generateDataSet(seed, 300);
    return JSON.stringify(data.rows.map((row) => data.materialize(row)));
  };
  expect(calls(11)).toBe(calls(11));
  expect(calls(11)).not.toBe(calls(12));
});

test('a handful of calls already covers every status, type and receiver type', () => {
  const data = generateDataSet(1, 12);
  expect(new Set(data.rows.map((row) => row.status))).toEqual(new Set(CALL_STATUSES));
  expect(new Set(data.rows.map((row) => row.type))).toEqual(new Set(CALL_TYPES));
  expect(new Set(data.rows.map((row) => row.receiverType))).toEqual(new Set(RECEIVER_TYPES));
  expect(new Set(data.rows.map((row) => row.mode))).toEqual(new Set(CALL_MODES));
});

test('a larger set has joined, never-joined, rejected and multi-device participants, recordings and a call of 50 entries', () => {
  const data = generateDataSet(1, 2000);
  const calls = data.rows.map((row) => data.materialize(row));
  const participants = calls.flatMap(({ call }) => call.participants);
  expect(participants.some((p) => p.isJoined)).toBe(true);
  expect(participants.some((p) => !p.isJoined && p.state === 'unanswered')).toBe(true);
  expect(participants.some((p) => p.state === 'rejected')).toBe(true);
  expect(calls.some(({ call }) => new Set(call.participants.map((p) => p.uid)).size < call.participants.length)).toBe(true);
  expect(calls.some(({ recordings }) => recordings.length > 0)).toBe(true);
  expect(calls.some(({ call }) => call.totalParticipants === 50)).toBe(true);
});

test('every call satisfies the derived invariants of the catalog and validates against the contract', () => {
  const data = generateDataSet(3, 2000);
  const problems: string[] = [];
  const check = (call: Call, ok: boolean, what: string) => void (ok || problems.push(`${call.sessionId}: ${what}`));
  for (const row of data.rows) {
    const { call, recordings } = data.materialize(row);
    const ps = call.participants;
    check(call, close(call.totalDurationInMinutes, call.totalAudioMinutes + call.totalVideoMinutes), 'duration = audio + video');
    check(
      call,
      close(
        call.totalAudioMinutes,
        ps.reduce((t, p) => t + p.totalAudioMinutes, 0),
      ),
      'audio sums over participants',
    );
    check(
      call,
      close(
        call.totalVideoMinutes,
        ps.reduce((t, p) => t + p.totalVideoMinutes, 0),
      ),
      'video sums over participants',
    );
    check(call, call.totalParticipants === ps.length && ps.length <= 50, 'participant entries');
    check(call, call.startedAt >= call.initiatedAt, 'startedAt >= initiatedAt');
    check(call, call.endedAt === undefined || call.endedAt >= call.startedAt, 'endedAt >= startedAt');
    check(call, /^\d{2,}:[0-5]\d:[0-5]\d$/.test(call.totalDuration), 'timer format');
    const started = call.status === 'ongoing' || call.status === 'ended';
    check(call, call.totalDuration === timer(started ? (call.endedAt ?? DATA_NOW) - call.startedAt : 0), 'timer is the call length');
    check(call, started === (call.mid !== undefined), 'mid on started calls only');
    check(call, call.hasRecording === recordings.length > 0, 'hasRecording');
    for (const p of ps) {
      check(call, close(p.totalDuration, p.totalAudioMinutes + p.totalVideoMinutes), `${p.uid} total = audio + video`);
      check(call, p.totalAudioMinutes >= 0 && p.totalVideoMinutes >= 0, `${p.uid} minutes not negative`);
      if (!p.isJoined) {
        check(
          call,
          p.totalDuration === 0 && [p.deviceId, p.joinedAt, p.leftAt, p.mid].every((v) => v === undefined),
          `${p.uid} never joined`,
        );
      } else {
        check(call, p.joinedAt! >= call.initiatedAt && (p.leftAt === undefined || p.leftAt >= p.joinedAt!), `${p.uid} joined/left order`);
        check(
          call,
          p.leftAt === undefined || call.endedAt === undefined || p.leftAt <= call.endedAt,
          `${p.uid} left before the call ended`,
        );
      }
    }
    const devices = ps.filter((p) => p.isJoined).map((p) => `${p.uid}/${p.deviceId}`);
    check(call, new Set(devices).size === devices.length, 'one entry per device');
    for (const r of recordings) {
      check(
        call,
        r.startTime >= call.startedAt && r.endTime >= r.startTime && r.endTime <= call.endedAt!,
        `recording ${r.rid} within the call`,
      );
      if (contract.validateSchema('Recording', r).length > 0) problems.push(`${r.rid}: not a valid Recording`);
    }
    const violations = contract.validateSchema('CallListItem', call);
    if (violations.length > 0) problems.push(`${call.sessionId}: ${JSON.stringify(violations)}`);
  }
  expect(problems.slice(0, 20)).toEqual([]);
});

test('rows carry what their calls say, in newest-first order with unique session ids', () => {
  const data = generateDataSet(5, 500);
  expect(new Set(data.rows.map((row) => row.sessionId)).size).toBe(500);
  for (const [i, row] of data.rows.entries()) {
    const { call } = data.materialize(row);
    expect({ ...row, index: undefined, uids: undefined }).toEqual({
      index: undefined,
      uids: undefined,
      sessionId: call.sessionId,
      type: call.type,
      mode: call.mode,
      status: call.status,
      receiverType: call.receiverType,
      receiver: call.receiver,
      totalParticipants: call.totalParticipants,
      people: new Set(call.participants.map((participant) => participant.uid)).size,
      hasRecording: call.hasRecording,
      initiatedAt: call.initiatedAt,
      startedAt: call.startedAt,
      endedAt: call.endedAt,
    });
    expect([...row.uids].sort()).toEqual([...new Set(call.participants.map((p) => p.uid))].sort());
    if (i > 0) expect(data.rows[i - 1]!.initiatedAt).toBeGreaterThanOrEqual(row.initiatedAt);
  }
});

test('the documented mark-unread fixtures exist for every seed and size', () => {
  for (const [seed, calls] of [
    [1, 1],
    [2, 5],
    [99, 1000],
  ] as const) {
    const data = generateDataSet(seed, calls);
    const group = data.groups.find((g) => g.guid === UNREAD_FIXTURE.groupGuid);
    expect(group?.members).toContain(UNREAD_FIXTURE.actingUid);
    expect(group?.members).not.toContain(OUTSIDER_UID);
    expect(data.users.map((u) => u.uid)).toContain(OUTSIDER_UID);
    expect(data.messages.find((m) => m.id === UNREAD_FIXTURE.messageId)?.guid).toBe(UNREAD_FIXTURE.groupGuid);
  }
});

test('the data set scales to 200,000 calls', () => {
  test.slow();
  const data = generateDataSet(1, 200_000);
  expect(data.rows).toHaveLength(200_000);
  expect(new Set(data.rows.map((row) => row.sessionId)).size).toBe(200_000);
  const last = data.materialize(data.rows[199_999]!).call;
  expect(last.sessionId).toBe(data.rows[199_999]!.sessionId);
});
