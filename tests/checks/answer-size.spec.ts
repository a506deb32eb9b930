// What keeps judging one answer linear in its size (issue 46, item 2) changes what is judged not at
// all: every entry of a big call is still judged and counted, only the words of the violations are
// bounded (a few described per requirement, the rest counted); entries are paired through an index
// rather than a search, with the pairing of the search; the schema is validated with its references
// inlined, its errors still naming the place in the OpenAPI document. Each is checked here against
// what it replaced, and on sizes where the old way's cost would show.
import { isDeepStrictEqual } from 'node:util';
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { checkExchange } from '../../core/checks/index.ts';
import { responseSchemaConformance } from '../../core/checks/response-schema.ts';
import { differencesOverTime, type Difference } from '../../core/checks/settling.ts';
import {
  describedPerRequirement,
  describedUpTo,
  violationCount,
  DESCRIBED_PER_REQUIREMENT,
  type Violation,
} from '../../core/checks/violation.ts';
import { describeViolations } from '../../core/run/verdict.ts';
import { tookPartIndex, tookPartUnder, TOOK_PART_READINGS } from '../../core/checks/readings.ts';
import { oneOfValues } from '../../core/arbitraries/call-filters.ts';
import { callList, checkContext, exchange, joinedParticipant, listedCall, neverJoinedParticipant } from './exchanges.ts';

const context = checkContext();

const violation = (requirement: string, title: string): Violation => ({ check: 'c', requirement, title, expected: 'e', received: 'r' });

test('at most 20 violations of a requirement are described, the last counting the rest; other requirements keep theirs, in order', () => {
  const many = Array.from({ length: 45 }, (_, index) => violation('A', `a${index}`));
  const kept = describedPerRequirement([...many.slice(0, 10), violation('B', 'b0'), ...many.slice(10), violation('B', 'b1')]);
  expect(kept.filter((found) => found.requirement === 'A')).toHaveLength(DESCRIBED_PER_REQUIREMENT);
  expect(kept.map((found) => found.title).slice(0, 12)).toEqual([...many.slice(0, 10).map((found) => found.title), 'b0', 'a10']);
  const lastOfA = kept.filter((found) => found.requirement === 'A').at(-1)!;
  expect(lastOfA).toMatchObject({ title: 'a19', alike: 25 });
  expect(kept.filter((found) => found.requirement === 'B').map((found) => found.alike)).toEqual([undefined, undefined]);
  expect(violationCount(kept)).toBe(47);
  // Counted again, what was counted is kept: a violation that stands for others passes them on.
  expect(violationCount(describedPerRequirement(kept, 5))).toBe(47);
  expect(describedUpTo([1, 2, 3], (n) => violation('C', `c${n}`), 2)).toEqual([
    violation('C', 'c1'),
    { ...violation('C', 'c2'), alike: 1 },
  ]);
});

test('a failure message says how many more of a requirement the answer holds', () => {
  const kept = describedPerRequirement(Array.from({ length: 30 }, (_, index) => violation('A', `a${index}`)));
  const message = describeViolations(kept, 25);
  expect(message).toContain('…and 10 more of A in the same answer');
  expect(describeViolations(kept, 5)).toContain('…and 25 more violations');
});

/** A list page whose one call has `entries` entries, each missing its state and minutes. */
function bigList(entries: number) {
  const participants = [joinedParticipant(), ...Array.from({ length: entries }, (_, index) => ({ uid: `user-${index}`, isJoined: false }))];
  return callList([{ ...listedCall(), participants }]);
}

test('a call of 5,000 entries each missing three fields: every one counted, 20 of each requirement described, with the schema path in the document', () => {
  const violations = responseSchemaConformance(exchange('listCalls', 200, bigList(5_000)), context);
  for (const id of ['PARTICIPANT-FIELD-STATE', 'PARTICIPANT-FIELD-TOTAL-AUDIO-MINUTES', 'PARTICIPANT-FIELD-TOTAL-VIDEO-MINUTES']) {
    const ofIt = violations.filter((found) => found.requirement === id);
    expect(ofIt, id).toHaveLength(DESCRIBED_PER_REQUIREMENT);
    expect(violationCount(ofIt), id).toBe(5_000);
    // Inlined for speed, the Participant schema is still named where the document has it.
    expect(ofIt[0]!.expected, id).toContain('#/components/schemas/Participant');
    expect(ofIt[0]!.title, id).toMatch(/^\/data\/0\/participants\/1 must have required property/);
  }
  expect(violations.map((found) => found.requirement).sort()).toEqual(
    [
      ...Array(DESCRIBED_PER_REQUIREMENT).fill('PARTICIPANT-FIELD-STATE'),
      ...Array(DESCRIBED_PER_REQUIREMENT).fill('PARTICIPANT-FIELD-TOTAL-AUDIO-MINUTES'),
      ...Array(DESCRIBED_PER_REQUIREMENT).fill('PARTICIPANT-FIELD-TOTAL-VIDEO-MINUTES'),
    ].sort(),
  );
});

test('a big answer met again is judged as the first time, the violations now of the exchange that carried it', () => {
  const body = bigList(3_000);
  const first = exchange('listCalls', 200, body);
  const again = exchange('listCalls', 200, JSON.parse(JSON.stringify(body)));
  const found = checkExchange(first, context);
  const foundAgain = checkExchange(again, context);
  expect(foundAgain.map(({ exchange: _exchange, ...rest }) => rest)).toEqual(found.map(({ exchange: _exchange, ...rest }) => rest));
  expect(found.every((found) => found.exchange === first)).toBe(true);
  expect(foundAgain.every((found) => found.exchange === again)).toBe(true);
  // The same text under another status is another answer.
  expect(checkExchange(exchange('listCalls', 500, body), context).map((found) => found.requirement)).toContain('ERROR-BODY-SHAPE');
});

/**
 * The pairing the index replaced, as it was: each earlier entry takes the first later one equal to
 * it, then the first of its key, searched one by one; the rest by position when as many are left.
 */
function differencesBySearch(earlier: unknown, later: unknown, path = ''): Difference[] {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isObject(earlier) && isObject(later))
    return [...new Set([...Object.keys(earlier), ...Object.keys(later)])].flatMap((key) =>
      differencesBySearch(earlier[key], later[key], `${path}/${key}`),
    );
  if (!Array.isArray(earlier) || !Array.isArray(later)) return isDeepStrictEqual(earlier, later) ? [] : [{ path, earlier, later }];
  const keyOf = (item: unknown) =>
    !isObject(item)
      ? undefined
      : 'rid' in item
        ? `rid:${JSON.stringify(item.rid)}`
        : JSON.stringify([item.uid, item.deviceId, item.joinedAt, item.isJoined]);
  const unpaired = later.map((item, index) => ({ item, index }));
  const take = (at: number) => (at < 0 ? undefined : unpaired.splice(at, 1)[0]);
  const rest: Array<{ item: unknown; index: number }> = [];
  const found: Difference[] = [];
  earlier.forEach((item, index) => {
    if (take(unpaired.findIndex((candidate) => isDeepStrictEqual(candidate.item, item))) === undefined) rest.push({ item, index });
  });
  const left: typeof rest = [];
  for (const entry of rest) {
    const key = keyOf(entry.item);
    const match = key === undefined ? undefined : take(unpaired.findIndex((candidate) => keyOf(candidate.item) === key));
    if (match) found.push(...differencesBySearch(entry.item, match.item, `${path}/${entry.index}`));
    else left.push(entry);
  }
  if (left.length === unpaired.length) {
    left.forEach((entry, position) => found.push(...differencesBySearch(entry.item, unpaired[position]!.item, `${path}/${entry.index}`)));
    return found;
  }
  for (const entry of left) found.push({ path: `${path}/${entry.index}`, earlier: entry.item, later: undefined, entry: true });
  for (const entry of unpaired) found.push({ path: `${path}/+${entry.index}`, earlier: undefined, later: entry.item, entry: true });
  return found;
}

test('entries paired through the index differ exactly where the one-by-one search found them to', () => {
  // Few uids and values, so that equal entries, entries of one key and unkeyed items all recur.
  const entry = fc.oneof(
    fc.record(
      {
        uid: fc.constantFrom('u1', 'u2', 'u3'),
        deviceId: fc.constantFrom('d1', 'd2'),
        isJoined: fc.boolean(),
        totalAudioMinutes: fc.constantFrom(0, -0, 1, 2.5),
        state: fc.constantFrom('ongoing', 'ended'),
      },
      { requiredKeys: ['uid'] },
    ),
    fc.record({ rid: fc.constantFrom('r1', 'r2'), duration: fc.constantFrom(1, 2) }),
    fc.constantFrom(1, 'x', null, -0),
  );
  const entries = fc.array(entry, { maxLength: 8 });
  fc.assert(
    fc.property(entries, entries, fc.boolean(), (earlier, later, shuffled) => {
      const after = shuffled ? [...earlier].reverse().concat(later) : later;
      const call = (participants: unknown[]) => ({ sessionId: 's', participants, recordings: participants.slice(0, 2) });
      expect(differencesOverTime(call(earlier), call(after))).toEqual(differencesBySearch(call(earlier), call(after)));
    }),
    { numRuns: 200, seed: 4646 },
  );
});

test('two views of a call of 20,000 entries, one reversed, pair every entry; one changed entry is the one difference', () => {
  const participants: Array<Record<string, unknown>> = Array.from({ length: 20_000 }, (_, index) => ({
    ...neverJoinedParticipant(),
    uid: `user-${index}`,
  }));
  const reversed = [...participants].reverse();
  expect(differencesOverTime({ participants }, { participants: reversed })).toEqual([]);
  reversed[0] = { ...reversed[0]!, state: 'ended' };
  expect(differencesOverTime({ participants }, { participants: reversed })).toEqual([
    { path: '/participants/19999/state', earlier: participants[19_999]!.state, later: 'ended' },
  ]);
});

test("who took part, read once for a call's users, is what reading each user's entries says", () => {
  const call = {
    ...listedCall(),
    initiator: 'u0',
    participants: [
      { uid: 'u1', isJoined: true },
      { uid: 'u1', isJoined: false },
      { uid: 'u2', isJoined: false },
      { uid: 'u0', isJoined: false },
    ],
  };
  const index = tookPartIndex(call);
  for (const uid of ['u0', 'u1', 'u2', 'u3'])
    for (const reading of TOOK_PART_READINGS) expect(index(uid, reading), `${uid} ${reading}`).toBe(tookPartUnder(call, uid, reading));
});

test('a uid drawn from more values than a call can take as arguments: no RangeError, the same seed the same value', () => {
  const uids = Array.from({ length: 200_000 }, (_, index) => `user-${index}`);
  const drawn = fc.sample(oneOfValues(uids), { seed: 46, numRuns: 50 });
  expect(drawn.every((uid) => uid.startsWith('user-'))).toBe(true);
  expect(new Set(drawn).size).toBeGreaterThan(40);
  expect(fc.sample(oneOfValues(uids), { seed: 46, numRuns: 50 })).toEqual(drawn);
  expect(fc.sample(oneOfValues(['a', 'b']), { seed: 46, numRuns: 20 }).every((uid) => uid === 'a' || uid === 'b')).toBe(true);
});
