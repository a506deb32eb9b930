// judgeStill and judgeInOrder on scripted attempts: movement alone never fails a comparison, a wrong
// answer that a retake repeats always does, and a comparison that never stood still is left unjudged.
import { test, expect } from '@playwright/test';
import {
  judgeInOrder,
  judgeStill,
  type InOrder,
  movementBetween,
  movementWithin,
  MovementTally,
  STILL_ATTEMPTS,
} from '../../core/checks/moving-data.ts';
import type { Violation } from '../../core/checks/violation.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { exchange, listedCall } from './exchanges.ts';
import { answerAge } from '../../core/checks/answer-age.ts';
import { andNarrowingSubset } from '../../core/checks/narrowing.ts';

/** A List Calls answer to `query` holding calls with these ids and states, under `total`. */
function page(query: string, total: number, calls: Array<{ id: string; status?: string }>): Exchange {
  const data = calls.map(({ id, status }) => ({ ...listedCall(), sessionId: id, ...(status && { status }) }));
  const answer = exchange('listCalls', 200, {
    data,
    meta: { pagination: { total, count: data.length, per_page: 100, current_page: 1, total_pages: 1 } },
  });
  return { ...answer, request: { ...answer.request, url: `http://127.0.0.1:8080/v3/calls${query}` } };
}

const broken: Violation = {
  check: 'pages_partition',
  requirement: 'PAGINATION-PAGES-PARTITION',
  title: 'pages overlap',
  expected: 'none',
  received: 'one',
};

/** Runs judgeStill over scripted attempts, judging each by `verdicts` in turn. */
async function scripted(attempts: Exchange[][], verdicts: Violation[][]) {
  let taken = 0;
  const outcome = await judgeStill(
    async () => ({ answers: attempts[Math.min(taken, attempts.length - 1)]!, index: taken++ }),
    ({ index }) => verdicts[Math.min(index, verdicts.length - 1)]!,
  );
  return { outcome, taken };
}

test('an attempt that shows no movement and breaks nothing is judged at once, with no retake', async () => {
  const { outcome, taken } = await scripted([[page('?page=1', 10, [{ id: 'a' }]), page('?page=2', 10, [{ id: 'b' }])]], [[]]);
  expect(outcome).toEqual({ judged: true, violations: [], retakes: 0 });
  expect(taken).toBe(1);
});

test('a violation is judged only once an identical retake repeats it: a target wrong in itself still fails', async () => {
  const still = [page('?page=1', 10, [{ id: 'a' }]), page('?page=2', 10, [{ id: 'a' }])];
  const { outcome, taken } = await scripted([still, still], [[broken], [broken]]);
  expect(outcome).toEqual({ judged: true, violations: [broken], retakes: 1 });
  expect(taken).toBe(2);
});

test('totals that disagree in the same way on every attempt are the target, not movement: judged', async () => {
  // One list answering totals 10 and 11 looks like movement, but an identical retake shows it is not.
  const drifting = [page('?page=1', 10, [{ id: 'a' }]), page('?page=2', 11, [{ id: 'b' }])];
  const { outcome } = await scripted([drifting, drifting], [[broken], [broken]]);
  expect(outcome).toMatchObject({ judged: true, violations: [broken] });
});

test('a violation the data moved under is taken again, and a still retake that breaks nothing passes', async () => {
  const moving = [page('?page=1', 10, [{ id: 'new' }]), page('?page=2', 11, [{ id: 'a' }])];
  const settled = [page('?page=1', 11, [{ id: 'new' }]), page('?page=2', 11, [{ id: 'b' }])];
  const { outcome, taken } = await scripted([moving, settled], [[broken], []]);
  expect(outcome).toEqual({ judged: true, violations: [], retakes: 1 });
  expect(taken).toBe(2);
});

test('a retake that differs from the attempt before does not confirm its violation, whatever it finds', async () => {
  // The same violation found twice is not confirmed when the list grew in between.
  const first = [page('', 10, [{ id: 'a' }])];
  const second = [page('', 11, [{ id: 'a' }])];
  const third = [page('', 12, [{ id: 'a' }])];
  const fourth = [page('', 13, [{ id: 'a' }])];
  const { outcome, taken } = await scripted([first, second, third, fourth], [[broken]]);
  expect(outcome.judged).toBe(false);
  expect(taken).toBe(STILL_ATTEMPTS);
  expect(outcome).toMatchObject({ retakes: STILL_ATTEMPTS - 1 });
  expect(outcome.judged === false && outcome.movement).toContain('answered total 12, then 13');
});

test('a call answered in two states is movement; the same call in one state is not', () => {
  const ongoing = page('?page=1', 2, [{ id: 'a', status: 'ongoing' }]);
  const ended = page('?page=2', 2, [{ id: 'a', status: 'ended' }]);
  expect(movementWithin([ongoing, ended])).toBe('call a was answered in 2 states');
  expect(movementWithin([ongoing, page('?page=2', 2, [{ id: 'a', status: 'ongoing' }])])).toBeUndefined();
  expect(movementBetween([ongoing], [page('?page=1', 2, [{ id: 'a', status: 'ended' }])])).toBe('call a changed between two attempts');
});

test('pages of one list are one list, whatever page and perPage; other filters are other lists', () => {
  expect(movementWithin([page('?page=1&perPage=5', 10, []), page('?perPage=10&page=2', 11, [])])).toContain('answered totals 10 and 11');
  expect(movementWithin([page('?status=ended', 10, []), page('?status=ongoing', 11, [])])).toBeUndefined();
});

test('the tally says how often the data moved, and asks for a skip only when nothing could be judged', async () => {
  const tally = new MovementTally();
  tally.count({ judged: true, violations: [], retakes: 0 });
  expect(tally.describe()).toBeUndefined();
  tally.count({ judged: true, violations: [], retakes: 2 });
  expect(tally.describe()).toBe('the data moved while it was compared: 1 of 2 comparisons were taken again (2 retakes in all)');
  expect(tally.skipReason()).toBeUndefined();

  const never = new MovementTally();
  never.count({ judged: false, retakes: 3, movement: 'a list answered total 1, then 2' });
  expect(never.skipReason()).toContain('the data moved during each of 4 attempts');
  expect(never.describe()).toContain('1 left unjudged');
});

test('a retake whose lists answer the same totals with other calls confirms nothing: ringing calls turn over whole', async () => {
  // The combination shows a ringing call the single list, asked at other moments, lacks both times;
  // its two answers hold other ringing calls, as many each time.
  const combination = page('?status=initiated&type=audio', 1, [{ id: 'a', status: 'initiated' }]);
  const first = [combination, page('?status=initiated', 2, [{ id: 'b' }, { id: 'c' }])];
  const second = [combination, page('?status=initiated', 2, [{ id: 'd' }, { id: 'e' }])];
  const missing: Violation = { ...broken, requirement: 'CALLS-LIST-AND-NARROWING', title: 'returned call a', received: 'call a' };
  expect(movementBetween(first, second)).toBe('a list (status=initiated) showed other calls in the same total');
  const { outcome } = await scripted([first, second, first, second], [[missing]]);
  expect(outcome.judged).toBe(false);
});

/**
 * A scripted target on a clock of its own: each call is listed by the combination from `appears`
 * until `movesOn`, and by the filter alone from `appears` until `movesOn` too, unless the target
 * drops it (`dropped`). The combination's answers are `firstAge` seconds old, the filter's
 * `thenAge` (a cache, a replica); waiting advances the clock.
 */
function scriptedTarget(options: {
  calls: Array<{ id: string; appears: number; movesOn?: number; dropped?: boolean }>;
  firstAge?: number;
  thenAge?: number;
  boundSeconds: number;
}) {
  let now = 100_000;
  const asked: string[] = [];
  const at = (age: number) => now / 1000 - age;
  const listed = (snapshot: number, single: boolean) =>
    options.calls
      .filter((call) => call.appears <= snapshot && snapshot < (call.movesOn ?? Infinity) && !(single && call.dropped))
      .map((call) => ({ id: call.id }));
  const answer = (query: string, single: boolean, age: number) => {
    now += 100;
    asked.push(query);
    const calls = listed(at(age), single);
    return { ...page(query, calls.length, calls), receivedAt: now };
  };
  const age = answerAge(options.boundSeconds, { now: () => now, sleep: async (ms) => void (now += ms) });
  const seen: number[] = [];
  const comparison: InOrder<Exchange, Exchange[]> = {
    first: async () => answer('?status=initiated&type=audio', false, options.firstAge ?? 0),
    then: async () => [answer('?status=initiated', true, options.thenAge ?? 0)],
    judge: (combination, [single]) => andNarrowingSubset(combination, { status: 'initiated', type: 'audio' }, single!, 'status=initiated'),
    answersOf: (taken) => (Array.isArray(taken) ? taken : [taken]),
    explainedByAge: (seconds) => seen.push(seconds),
  };
  return { judged: () => judgeInOrder(comparison, age), asked, seen };
}

test('judgeInOrder: answers that show nothing missing are judged at once, with no wait', async () => {
  const target = scriptedTarget({ calls: [{ id: 'a', appears: 0 }], boundSeconds: 10 });
  expect(await target.judged()).toEqual({ judged: true, violations: [], retakes: 0 });
  expect(target.asked).toHaveLength(2);
});

test('judgeInOrder: a call the filter alone drops for good fails, fresh or behind a cache, whatever the bound', async () => {
  for (const [thenAge, boundSeconds] of [
    [0, 0],
    [5, 10],
    [0, 120],
  ] as const) {
    const target = scriptedTarget({
      calls: [
        { id: 'a', appears: 0 },
        { id: 'b', appears: 0, dropped: true },
      ],
      thenAge,
      boundSeconds,
    });
    const outcome = await target.judged();
    expect(outcome.judged && outcome.violations.map((violation) => violation.received)).toEqual(['call "b"']);
  }
});

test("judgeInOrder: a call newer than the filter alone's cached answer is no violation, and shows how old that answer was", async () => {
  // The combination is fresh; the filter alone answers from a snapshot 8 s old, before the call existed.
  const target = scriptedTarget({ calls: [{ id: 'a', appears: 100 - 3 }], thenAge: 8, boundSeconds: 10 });
  expect(await target.judged()).toEqual({ judged: true, violations: [], retakes: 2 });
  // Asked 0.1 s after the combination arrived, it lacked the call: it was at least that old.
  expect(target.seen).toEqual([0.1]);
});

test("judgeInOrder: an answer older than the bound can still be taken for a violation (the bound is the user's word)", async () => {
  const target = scriptedTarget({ calls: [{ id: 'a', appears: 100 - 3 }], thenAge: 30, boundSeconds: 10 });
  const outcome = await target.judged();
  expect(outcome.judged && outcome.violations.length).toBe(1);
});

test('judgeInOrder: a call that moved on between the answers is movement; findings that never stand leave it unjudged', async () => {
  const moved = scriptedTarget({ calls: [{ id: 'a', appears: 0, movesOn: 100.1501 }], boundSeconds: 0 });
  expect(await moved.judged()).toMatchObject({ judged: true, violations: [] });
  expect(STILL_ATTEMPTS).toBeGreaterThan(1);
});
