// What the List Calls filters mean for one call, and the checks that a filtered list and an
// onBehalfOf list return only the calls they should.
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import {
  filterNarrowing,
  valueTotalsPartition,
  FILTER_REQUIREMENTS,
  matchesFilter,
  onBehalfOfScope,
  tookPart,
  type Filters,
} from '../../core/checks/filters.ts';
import { dateMatches, dateReadingMatches, DATE_READINGS, describeDateReadings, type DateJudgement } from '../../core/checks/dates.ts';
import { ownValue, tellingFromCalls } from '../../core/arbitraries/call-filters.ts';
import { OPEN_READINGS, type Readings } from '../../core/checks/readings.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { callList, exchange, joinedParticipant, listedCall, listOf, seen } from './exchanges.ts';

const EXACT: Readings = { ...OPEN_READINGS, dates: { startedAt: ['exact'], endedAt: ['exact'] } };
const call = listedCall();
/** The sample call: an ended 1:1 audio call of user-1 (initiator, joined) and user-2 (never joined), without recording. */
const MATCHING: Filters = {
  type: 'audio',
  mode: 'call',
  status: 'ended',
  receiverType: 'user',
  participantsCount: 2,
  startedAt: 1692368168,
  endedAt: 1692368187,
  hasRecording: false,
  uid: 'user-2',
};
const MISMATCHING: Filters = {
  type: 'video',
  mode: 'meet',
  status: 'ongoing',
  receiverType: 'group',
  participantsCount: 3,
  startedAt: 1692368169,
  endedAt: 1692368186,
  hasRecording: true,
  uid: 'user-3',
};

const narrowing = (filters: Filters, dates = EXACT) => {
  const sent = listOf([listedCall()]);
  return filterNarrowing(sent, callsIn(sent), filters, dates);
};

test('dateMatches applies each semantics to a timestamp, and never matches a value that is not a number', () => {
  expect([dateMatches(10, 10, 'exact'), dateMatches(11, 10, 'exact')]).toEqual([true, false]);
  expect([dateMatches(10, 10, 'at-or-after'), dateMatches(9, 10, 'at-or-after')]).toEqual([true, false]);
  expect([dateMatches(11, 10, 'after'), dateMatches(10, 10, 'after')]).toEqual([true, false]);
  expect([dateMatches(10, 10, 'at-or-before'), dateMatches(11, 10, 'at-or-before')]).toEqual([true, false]);
  expect([dateMatches(9, 10, 'before'), dateMatches(10, 10, 'before')]).toEqual([true, false]);
  expect(dateMatches('10', 10, 'exact')).toBe(false);
  expect(dateMatches(undefined, 10, 'at-or-after')).toBe(false);
});

test('a user took part in a call as its initiator or through a participant entry, not as its receiver alone', () => {
  expect(tookPart(call, 'user-1')).toBe(true);
  expect(tookPart({ ...call, participants: [] }, 'user-1')).toBe(true);
  expect(tookPart(call, 'user-2')).toBe(true);
  expect(tookPart({ ...call, participants: [] }, 'user-2')).toBe(false);
  expect(tookPart(call, 'user-3')).toBe(false);
});

test('the sample call matches each filter it should and no filter it should not', () => {
  for (const name of Object.keys(FILTER_REQUIREMENTS) as Array<keyof Filters>) {
    expect(matchesFilter(call, name, MATCHING[name], EXACT), `${name}=${String(MATCHING[name])}`).toBe(true);
    expect(matchesFilter(call, name, MISMATCHING[name], EXACT), `${name}=${String(MISMATCHING[name])}`).toBe(false);
  }
});

test("participantsCount counts under the reading the target's filter follows, whatever totalParticipants counts, and totalParticipants only when entries are not listed", () => {
  const { participants, ...unlisted } = call;
  const counting = (participantsFilter: Readings['participantsFilter']): Readings => ({ ...EXACT, participantsFilter });
  expect(matchesFilter({ ...call, totalParticipants: 5 }, 'participantsCount', 2, counting(['entries']))).toBe(true);
  expect(matchesFilter(call, 'participantsCount', 1, counting(['entries']))).toBe(false);
  expect(matchesFilter(call, 'participantsCount', 1, counting(['joined-entries']))).toBe(true);
  expect(matchesFilter(call, 'participantsCount', 2, counting(['joined-entries']))).toBe(false);
  expect(matchesFilter({ ...unlisted, totalParticipants: 5 }, 'participantsCount', 5, EXACT)).toBe(true);
  // A user on two devices beside another: three entries, two people; one of the three never joined.
  const entries = participants as Array<Record<string, unknown>>;
  const twoDevices = { ...call, participants: [...entries, { ...entries[0], deviceId: 'device-9' }] };
  expect(matchesFilter(twoDevices, 'participantsCount', 3, counting(['entries']))).toBe(true);
  expect(matchesFilter(twoDevices, 'participantsCount', 2, counting(['people']))).toBe(true);
  expect(matchesFilter(twoDevices, 'participantsCount', 3, counting(['people']))).toBe(false);
  expect(matchesFilter(twoDevices, 'participantsCount', 1, counting(['joined-people']))).toBe(true);
  expect(matchesFilter(twoDevices, 'participantsCount', 2, counting(['joined-entries']))).toBe(true);
});

test('uid matches a user who took part under a reading the target follows', () => {
  const tookPartAs = (tookPartReadings: Readings['tookPart']): Readings => ({ ...EXACT, tookPart: tookPartReadings });
  expect(matchesFilter(call, 'uid', 'user-2', tookPartAs(['any-entry']))).toBe(true);
  expect(matchesFilter(call, 'uid', 'user-2', tookPartAs(['joined-or-initiator', 'joined']))).toBe(false);
  expect(matchesFilter(call, 'uid', 'user-1', tookPartAs(['joined']))).toBe(true);
});

test('a date filter matches when any semantics still possible matches', () => {
  const dates: DateJudgement = { startedAt: ['exact', 'at-or-after'], endedAt: ['before'] };
  const bounds: Readings = { ...OPEN_READINGS, dates };
  expect(matchesFilter(call, 'startedAt', 1692368100, bounds)).toBe(true);
  expect(matchesFilter(call, 'startedAt', 1692368200, bounds)).toBe(false);
  expect(matchesFilter(call, 'endedAt', 1692368188, bounds)).toBe(true);
});

test('the startedAt filter may compare initiatedAt: each comparison reads the one field, and endedAt has no such reading', () => {
  const rang = { ...listedCall(), initiatedAt: 100, startedAt: 110, endedAt: 200 };
  expect([
    dateReadingMatches(rang, 'startedAt', 105, 'at-or-after'),
    dateReadingMatches(rang, 'startedAt', 105, 'initiated-at-or-after'),
  ]).toEqual([true, false]);
  expect([dateReadingMatches(rang, 'startedAt', 100, 'exact'), dateReadingMatches(rang, 'startedAt', 100, 'initiated-at')]).toEqual([
    false,
    true,
  ]);
  expect([
    dateReadingMatches(rang, 'startedAt', 105, 'at-or-before'),
    dateReadingMatches(rang, 'startedAt', 105, 'initiated-before'),
  ]).toEqual([false, true]);
  expect(DATE_READINGS.endedAt.some((reading) => reading.startsWith('initiated'))).toBe(false);
  const either: Readings = { ...OPEN_READINGS, dates: { startedAt: ['at-or-after', 'initiated-at-or-after'], endedAt: ['exact'] } };
  expect(matchesFilter(rang, 'startedAt', 105, either)).toBe(true);
  expect(matchesFilter(rang, 'startedAt', 111, either)).toBe(false);
  expect(describeDateReadings('startedAt', ['at-or-after', 'after', 'initiated-at-or-after'], 105)).toBe(
    'startedAt at-or-after or after 105 or initiatedAt at-or-after 105',
  );
});

test("a call's own startedAt value for a filter is one it matches under every reading left, initiatedAt included, or none when none fits them all", () => {
  const rang = seen({ ...listedCall(), initiatedAt: 100, startedAt: 110 });
  const under = (startedAt: DateJudgement['startedAt']): Readings => ({ ...OPEN_READINGS, dates: { startedAt, endedAt: ['exact'] } });
  expect(ownValue(rang, 'startedAt', under(['at-or-after']))).toBe(109);
  expect(ownValue(rang, 'startedAt', under(['exact']))).toBe(110);
  expect(ownValue(rang, 'startedAt', under(['initiated-at-or-after']))).toBe(100);
  expect(ownValue(rang, 'startedAt', under(['at-or-after', 'initiated-at-or-after']))).toBe(100);
  expect(ownValue(rang, 'startedAt', under(['at-or-before', 'initiated-at-or-before']))).toBe(111);
  expect(ownValue(rang, 'startedAt', under(['after', 'before']))).toBeUndefined();
});

test('filterNarrowing passes when every returned call matches every filter, and with no filter at all', () => {
  expect(narrowing(MATCHING)).toEqual([]);
  expect(narrowing({})).toEqual([]);
});

test('a returned call that misses its one filter breaks that filter requirement', () => {
  for (const name of Object.keys(FILTER_REQUIREMENTS) as Array<keyof Filters>) {
    expect(narrowing({ [name]: MISMATCHING[name] }), name).toEqual([
      expect.objectContaining({ check: 'filter_narrowing', requirement: FILTER_REQUIREMENTS[name] }),
    ]);
  }
});

test('a returned call that misses one of several filters breaks CALLS-LIST-AND-NARROWING, naming what it missed', () => {
  const violations = narrowing({ type: 'audio', status: 'ongoing' });
  expect(violations).toEqual([
    expect.objectContaining({ requirement: 'CALLS-LIST-AND-NARROWING', expected: 'every call matches status = ongoing' }),
  ]);
  expect(violations[0]?.title).toContain('for type=audio&status=ongoing but does not match status');
  expect(violations[0]?.received).toBe('status "ended" at /data/0');
});

test('a uid filter mismatch shows who took part; a date mismatch the semantics judged', () => {
  expect(narrowing({ uid: 'user-3' })[0]).toMatchObject({
    expected: 'every call matches uid user-3 taking part (any-entry or joined-or-initiator or joined)',
    received: 'participants {"initiator":"user-1","participants":["user-1","user-2 (never joined)"]} at /data/0',
  });
  expect(
    narrowing({ startedAt: 1692368200 }, { ...OPEN_READINGS, dates: { startedAt: ['at-or-after', 'after'], endedAt: ['exact'] } })[0]
      ?.expected,
  ).toBe('every call matches startedAt at-or-after or after 1692368200');
});

test('onBehalfOfScope passes calls the user took part in, and a one-to-one call to the user with no entry of theirs', () => {
  const sent = listOf([listedCall()]);
  expect(onBehalfOfScope(sent, callsIn(sent), 'user-1')).toEqual([]);
  expect(onBehalfOfScope(sent, callsIn(sent), 'user-2')).toEqual([]);
  const called = listOf([{ ...listedCall(), participants: [joinedParticipant()] }]);
  expect(onBehalfOfScope(called, callsIn(called), 'user-2')).toEqual([]);
});

test('a one-to-one call returned on behalf of a user who took no part in it breaks CALLS-LIST-ON-BEHALF-OF', () => {
  const sent = listOf([listedCall()]);
  expect(onBehalfOfScope(sent, callsIn(sent), 'user-3')).toEqual([
    expect.objectContaining({
      check: 'on_behalf_of_scope',
      requirement: 'CALLS-LIST-ON-BEHALF-OF',
      received: 'initiator "user-1", receiver "user-2", participants ["user-1","user-2"]',
    }),
  ]);
});

test("a group call is never out of a user's scope: the calls of their groups are a scope the words allow, and membership is not shown", () => {
  const sent = listOf([{ ...listedCall(), receiverType: 'group', receiver: 'group-1' }]);
  expect(onBehalfOfScope(sent, callsIn(sent), 'user-3')).toEqual([]);
});

/** A List Calls answer that reports `total`, whatever its first page holds. */
const totalOf = (total: number) => {
  const body = callList([listedCall()]);
  body.meta.pagination.total = total;
  body.meta.pagination.total_pages = total;
  return exchange('listCalls', 200, body);
};

test('valueTotalsPartition passes totals that add up to the unfiltered total', () => {
  expect(
    valueTotalsPartition('hasRecording', totalOf(10), [
      { value: true, exchange: totalOf(3) },
      { value: false, exchange: totalOf(7) },
    ]),
  ).toEqual([]);
});

test('valueTotalsPartition reports totals that add up to more as the filter letting in other values, under its own requirement', () => {
  const violations = valueTotalsPartition('hasRecording', totalOf(10), [
    { value: true, exchange: totalOf(3) },
    { value: false, exchange: totalOf(10) },
  ]);
  expect(violations.map((violation) => violation.requirement)).toEqual(['CALLS-LIST-FILTER-HAS-RECORDING']);
  expect(violations[0]!.received).toBe('hasRecording=true: 3, hasRecording=false: 10');
});

test('valueTotalsPartition reports totals that add up to less as a filter dropping calls it matches (completeness)', () => {
  const violations = valueTotalsPartition('type', totalOf(10), [
    { value: 'audio', exchange: totalOf(3) },
    { value: 'video', exchange: totalOf(5) },
  ]);
  expect(violations.map((violation) => violation.requirement)).toEqual(['CALLS-LIST-FILTER-COMPLETENESS']);
});

test('the telling examples are, per receiver type, the ended call with the most users who took part, by every field it has and a uid other than its initiator', () => {
  const joined = (uid: string) => ({ ...joinedParticipant(), uid, deviceId: `device-${uid}` });
  const group = (sessionId: string, status: string, users: string[]) => ({
    ...listedCall(),
    sessionId,
    status,
    receiverType: 'group',
    receiver: 'group-1',
    participants: users.map(joined),
    totalParticipants: users.length,
  });
  const calls = [
    seen(listedCall()),
    seen(group('small', 'ended', ['user-1', 'user-4'])),
    seen(group('large-but-ongoing', 'ongoing', ['user-1', 'user-4', 'user-5', 'user-6', 'user-7'])),
    seen(group('large', 'canceled', ['user-1', 'user-4', 'user-5'])),
  ];
  const readings: Readings = { ...EXACT, tookPart: ['joined-or-initiator'] };
  const examples = tellingFromCalls(calls, readings);
  expect(examples.map(({ seen: { call } }) => call.sessionId)).toEqual([listedCall().sessionId, 'large']);
  // user-2 never joined the 1:1 call: under this reading only its initiator took part in it.
  expect(examples[0]!.filters).toMatchObject({ type: 'audio', mode: 'call', status: 'ended', receiverType: 'user', uid: 'user-1' });
  expect(examples[1]!.filters).toMatchObject({ status: 'canceled', receiverType: 'group', participantsCount: 3, uid: 'user-5' });
  // Printed by fast-check as the sampled calls are: by sessionId and the request that listed it.
  expect(fc.stringify(examples[1]!.seen)).toContain('the call "large" listed by GET');
  expect(tellingFromCalls([calls[2]!], readings)).toEqual([]);
});
