// The data set under each of the reference's readings: the deployment's reads call minutes as the
// call's own span and counts only the joined entries; the reference's own sums the entries' minutes
// and counts every entry. Nothing else differs: the same calls, participants and order for a seed.
import { test, expect } from '@playwright/test';
import { generateDataSet } from '../../../reference/data/generate.ts';
import { callMinutes, countedEntries } from '../../../reference/data/call-totals.ts';
import type { Call, Participant } from '../../../reference/model.ts';
import type { ReferenceReadings } from '../../../reference/readings.ts';
import { loadContract } from '../../../openapi/contract.ts';
import { totalsUnder } from '../readings-oracle.ts';

const SEEDS = [1, 3, 8, 21];
const CALLS = 600;
const contract = loadContract();

const totalsOf = ({ totalAudioMinutes, totalVideoMinutes, totalDurationInMinutes, totalParticipants }: Call) => ({
  totalAudioMinutes,
  totalVideoMinutes,
  totalDurationInMinutes,
  totalParticipants,
});
/** A call's totals when they are not what the readings say, else nothing. */
const wrongTotals = (call: Call, readings: ReferenceReadings) => {
  const [shown, expected] = [JSON.stringify(totalsOf(call)), JSON.stringify(totalsUnder(call, readings))];
  return shown === expected ? [] : [`${call.sessionId} (${call.status} ${call.type}) shows ${shown}, not ${expected}`];
};
const withoutTotals = ({
  totalAudioMinutes: _a,
  totalVideoMinutes: _v,
  totalDurationInMinutes: _d,
  totalParticipants: _p,
  ...rest
}: Call) => rest;

for (const seed of SEEDS) {
  test(`seed ${seed}: under the deployment's readings a call's minutes are its span in its type's field and totalParticipants its joined entries; nothing else changes`, () => {
    const own = generateDataSet(seed, CALLS, 'entries');
    const deployment = generateDataSet(seed, CALLS, 'deployment');
    expect(deployment.readings).toBe('deployment');
    expect(deployment.rows.map((row) => row.sessionId)).toEqual(own.rows.map((row) => row.sessionId));
    const problems: string[] = [];
    const check = (call: Call, ok: boolean, what: string) => void (ok || problems.push(`${call.sessionId}: ${what}`));
    for (const [position, row] of deployment.rows.entries()) {
      const { call, recordings } = deployment.materialize(row);
      const ownCall = own.materialize(own.rows[position]!);
      problems.push(...wrongTotals(call, 'deployment'));
      check(call, row.totalParticipants === call.totalParticipants, 'the row counts what the call shows');
      check(call, JSON.stringify(withoutTotals(call)) === JSON.stringify(withoutTotals(ownCall.call)), 'the same call but for its totals');
      check(call, JSON.stringify(recordings) === JSON.stringify(ownCall.recordings), 'the same recordings');
      const violations = contract.validateSchema('CallListItem', call);
      if (violations.length > 0) problems.push(`${call.sessionId}: ${JSON.stringify(violations)}`);
    }
    expect(problems.slice(0, 20)).toEqual([]);
    // Every status is there: calls that ended, that are ongoing and that never started are all checked.
    expect(new Set(deployment.rows.map((row) => row.status))).toEqual(
      new Set(['initiated', 'ongoing', 'ended', 'unanswered', 'rejected', 'canceled']),
    );
  });
}

test("under the reference's own readings, the default, minutes are the sums over the entries and totalParticipants every entry", () => {
  const problems: string[] = [];
  for (const seed of SEEDS) {
    const byDefault = generateDataSet(seed, CALLS);
    expect(byDefault.readings).toBe('entries');
    for (const row of byDefault.rows) {
      const { call } = byDefault.materialize(row);
      problems.push(...wrongTotals(call, 'entries'));
      if (row.totalParticipants !== call.totalParticipants) problems.push(`${call.sessionId}: the row counts otherwise than the call`);
    }
  }
  expect(problems.slice(0, 20)).toEqual([]);
});

test('the readings differ on most started calls and on the count of every call someone did not join', () => {
  const own = generateDataSet(5, CALLS, 'entries');
  const deployment = generateDataSet(5, CALLS, 'deployment');
  const pairs = deployment.rows.map(
    (row, position) => [deployment.materialize(row).call, own.materialize(own.rows[position]!).call] as const,
  );
  const started = pairs.filter(([call]) => call.status === 'ended' || call.status === 'ongoing');
  expect(started.filter(([call, ownCall]) => call.totalDurationInMinutes !== ownCall.totalDurationInMinutes).length).toBeGreaterThan(
    started.length / 2,
  );
  const someNeverJoined = pairs.filter(([call]) => call.participants.some((participant) => !participant.isJoined));
  expect(someNeverJoined.length).toBeGreaterThan(0);
  expect(someNeverJoined.every(([call, ownCall]) => call.totalParticipants < ownCall.totalParticipants)).toBe(true);
});

test("the deployment's published example: an ended audio call of 19 seconds shows 0.31666666666666665 minutes and counts its 2 joined entries of 5", () => {
  const joined = (minutes: number): Participant => ({
    uid: 'a',
    totalAudioMinutes: minutes,
    totalVideoMinutes: 0,
    totalDurationInMinutes: minutes,
    totalDuration: minutes,
    isJoined: true,
    state: 'ended',
  });
  const neverJoined: Participant = {
    uid: 'b',
    totalAudioMinutes: 0,
    totalVideoMinutes: 0,
    totalDurationInMinutes: 0,
    totalDuration: 0,
    isJoined: false,
    state: 'unanswered',
  };
  const participants = [joined(0.3167), joined(0.2833), neverJoined, neverJoined, neverJoined];
  const call = { type: 'audio', status: 'ended', startedAt: 1692368180, endedAt: 1692368199, participants } as const;
  expect(callMinutes('deployment', call)).toEqual({ audio: 0.31666666666666665, video: 0 });
  expect(countedEntries('deployment', participants)).toHaveLength(2);
  expect(callMinutes('entries', call)).toEqual({ audio: 0.3167 + 0.2833, video: 0 });
  expect(countedEntries('entries', participants)).toHaveLength(5);
});
