// The one-way rule for what settles after a call ends (core/checks/settling.ts): the target's
// clock read from its own data, settled only on evidence, and which changes are late fields settling.
import { test, expect } from '@playwright/test';
import { answerClock, earliestClock, isLateGain, lastMomentOf, overTime, settledBy, targetClock } from '../../core/checks/settling.ts';
import { listedCall, listOf } from './exchanges.ts';

const ended = (endedAt: number) => ({ ...listedCall(), status: 'ended', initiatedAt: endedAt - 60, startedAt: endedAt - 50, endedAt });

test("the target's clock is the newest moment its answers show, participants' included", () => {
  const call = ended(1_700_000_000);
  expect(lastMomentOf(call)).toBe(1_700_000_000);
  expect(targetClock([listOf([ended(1_700_000_000), ended(1_700_000_500)])], 1_800_000_000)).toBe(1_700_000_500);
  expect(targetClock([], 1_800_000_000)).toBeUndefined();
});

test("answers taken together: each is its own clock, and the earliest of them (empty answers aside) bounds the target's now at all of them", () => {
  const older = listOf([ended(1_700_000_000)]);
  const newer = listOf([ended(1_700_000_900), ended(1_700_000_000)]);
  expect(answerClock(newer)).toBe(1_700_000_900);
  expect(earliestClock([newer, listOf([]), older])).toBe(1_700_000_000);
  expect(earliestClock([listOf([])])).toBeUndefined();
});

test("a moment later than the suite's own clock by more than an hour is left out: it cannot have happened", () => {
  const now = 1_700_000_000;
  // A call dated a year ahead would make every call look settled; it is not read as the clock.
  expect(targetClock([listOf([ended(now - 1_000), ended(now + 365 * 86_400)])], now)).toBe(now - 1_000);
  // Within an hour of skew, it is.
  expect(targetClock([listOf([ended(now - 1_000), ended(now + 600)])], now)).toBe(now + 600);
});

test('a call is settled only on evidence: a final status and its last moment SETTLE_SECONDS before the clock', () => {
  const clock = 1_700_000_000;
  expect(settledBy(ended(clock - 300), clock, 300)).toBe(true);
  expect(settledBy(ended(clock - 299), clock, 300)).toBe(false);
  expect(settledBy({ ...ended(clock - 1_000), status: 'ongoing' }, clock, 300)).toBe(false);
  expect(settledBy(ended(clock - 1_000), undefined, 300)).toBe(false);
});

test('late fields settling are gains: hasRecording to true, a recording appearing, minutes growing, leftAt appearing', () => {
  expect(isLateGain({ path: '/hasRecording', earlier: false, later: true })).toBe(true);
  expect(isLateGain({ path: '/hasRecording', earlier: true, later: false })).toBe(false);
  expect(isLateGain({ path: '/totalAudioMinutes', earlier: 1, later: 1.5 })).toBe(true);
  expect(isLateGain({ path: '/totalAudioMinutes', earlier: 1.5, later: 1 })).toBe(false);
  expect(isLateGain({ path: '/totalDuration', earlier: '00:01:00', later: '00:01:30' })).toBe(true);
  expect(isLateGain({ path: '/totalDuration', earlier: '00:01:30', later: '00:01:00' })).toBe(false);
  expect(isLateGain({ path: '/participants/0/leftAt', earlier: undefined, later: 1_700_000_000 })).toBe(true);
  expect(isLateGain({ path: '/participants/0/leftAt', earlier: 1_700_000_000, later: 1_700_000_001 })).toBe(false);
  expect(isLateGain({ path: '/recordings', earlier: undefined, later: [{ rid: 'r1' }] })).toBe(true);
  expect(isLateGain({ path: '/mode', earlier: 'call', later: 'meet' })).toBe(false);
});

test('overTime: gains are movement on a call not yet settled, every difference breaks a settled one, losses always break', () => {
  const before = { ...ended(1_700_000_000), hasRecording: false };
  const after = { ...before, hasRecording: true, recordings: [{ rid: 'r1' }] };
  expect(overTime(before, after, false).breaks).toEqual([]);
  expect(overTime(before, after, false).gains.map(({ path }) => path)).toEqual(['/hasRecording', '/recordings']);
  expect(overTime(before, after, true).breaks.map(({ path }) => path)).toEqual(['/hasRecording', '/recordings']);
  expect(overTime(after, before, false).breaks.map(({ path }) => path)).toEqual(['/hasRecording', '/recordings']);
});

test('overTime over the fields both views carry: a field only the later view carries is neither a break nor a gain; a gain both carry still is one', () => {
  const listed = { ...ended(1_700_000_000), hasRecording: false };
  const fetched = { ...listed, hasRecording: true, recordings: [{ rid: 'r1' }] };
  expect(overTime(listed, fetched, false, 'shared')).toEqual({
    gains: [{ path: '/hasRecording', earlier: false, later: true }],
    breaks: [],
  });
  const carriedOnlyByGet = { ...listed, recordings: [{ rid: 'r1' }] };
  expect(overTime(listed, carriedOnlyByGet, false, 'shared')).toEqual({ gains: [], breaks: [] });
  expect(overTime(listed, carriedOnlyByGet, false, 'all').gains.map(({ path }) => path)).toEqual(['/recordings']);
});
