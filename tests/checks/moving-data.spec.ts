// judgeStill and judgeRepeated on scripted attempts: movement alone never fails a comparison, a wrong
// answer that a retake repeats always does, and a comparison that never stood still is left unjudged.
import { test, expect } from '@playwright/test';
import {
  judgeRepeated,
  judgeStill,
  movementBetween,
  movementWithin,
  MovementTally,
  STILL_ATTEMPTS,
} from '../../core/checks/moving-data.ts';
import type { Violation } from '../../core/checks/violation.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { exchange, listedCall } from './exchanges.ts';

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

/** Runs judgeRepeated over attempts each finding the violations given, in turn. */
async function repeated(found: Violation[][]) {
  let taken = 0;
  const outcome = await judgeRepeated(
    async () => ({ answers: [], index: taken++ }),
    ({ index }) => found[Math.min(index, found.length - 1)]!,
  );
  return { outcome, taken };
}

const missingCall = (id: string): Violation => ({
  check: 'and_narrowing_subset',
  requirement: 'CALLS-LIST-AND-NARROWING',
  title: `status=ongoing&type=audio returned call ${id}, which status=ongoing alone does not return`,
  expected: 'a subset',
  received: `call ${id}`,
});

test('judgeRepeated: an attempt that finds nothing is judged at once', async () => {
  expect(await repeated([[]])).toEqual({ outcome: { judged: true, violations: [], retakes: 0 }, taken: 1 });
});

test('judgeRepeated: a call found missing again in the next attempt stands, however much else moved', async () => {
  const { outcome, taken } = await repeated([
    [missingCall('a'), missingCall('b')],
    [missingCall('a'), missingCall('c')],
  ]);
  expect(outcome).toEqual({ judged: true, violations: [missingCall('a')], retakes: 1 });
  expect(taken).toBe(2);
});

test('judgeRepeated: a finding the next attempt does not repeat was movement; findings that never repeat leave it unjudged', async () => {
  const moved = await repeated([[missingCall('a')], []]);
  expect(moved.outcome).toEqual({ judged: true, violations: [], retakes: 1 });
  const never = await repeated([[missingCall('a')], [missingCall('b')], [missingCall('c')], [missingCall('d')]]);
  expect(never.taken).toBe(STILL_ATTEMPTS);
  expect(never.outcome.judged).toBe(false);
  expect(never.outcome.judged === false && never.outcome.movement).toContain('returned call d');
});
