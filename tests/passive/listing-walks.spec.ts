// The walks of a listing's pages in recorded traffic (passive/listing-walks.ts), on hand-made pages:
// which pages make one walk, what a walk's findings are set aside for (only the calls' own evidence
// of moving between the asks), and the bound on what is kept.
import { test, expect } from '@playwright/test';
import type { Exchange } from '../../core/transport/exchange.ts';
import { ListingWalks, WALK_NOT_JUDGED, type WalkSink } from '../../passive/listing-walks.ts';
import { listedCall } from '../openapi/samples.ts';

/** A call logged at `at` (UNIX seconds), ended 20 s later. */
const call = (id: string, at: number) => ({
  ...listedCall(),
  sessionId: id,
  initiatedAt: at,
  startedAt: at + 5,
  endedAt: at + 20,
  participants: [],
});

/** Page `page` (of size 2) of a list of `total`, holding `calls`, asked with `query`. */
function page(number: number, total: number, calls: object[], query = ''): Exchange {
  const body = {
    data: calls,
    meta: { pagination: { total, count: calls.length, per_page: 2, current_page: number, total_pages: Math.ceil(total / 2) } },
  };
  return {
    operation: 'listCalls',
    request: { method: 'GET', url: `http://target.test/v3/calls?page=${number}&perPage=2${query}`, headers: {} },
    response: { status: 200, headers: {}, body, text: JSON.stringify(body), isJson: true },
    durationMs: 5,
  };
}

/** A sink counting what the walks report. */
function sink() {
  const counted = { judged: 0, violations: [] as string[], notJudged: [] as string[] };
  const into: WalkSink = {
    judged: () => (counted.judged += 1),
    report: (violations) => counted.violations.push(...violations.map((violation) => violation.title)),
    notJudged: (reason) => counted.notJudged.push(reason),
  };
  return { counted, into };
}

/** The recorder's clock: `at` seconds after the data's moments, a moment per call a second. */
const T0 = 1_000_000;
const span = (at: number) => ({ start: at * 1000, end: at * 1000 + 5 });

/** Pages asked at recorder seconds, the target's clock reading as the calls they show. */
function ask(walks: ListingWalks, exchange: Exchange, at: number, out: WalkSink): void {
  const calls = (exchange.response.body as { data: Array<Record<string, unknown>> }).data.map((one) => ({ call: one, path: '', exchange }));
  walks.sawAnswer('http://target.test', span(at), calls as never);
  walks.keep({ exchange, source: `entry ${at}`, span: span(at), keyClass: 'k' }, undefined, out);
}

const limits = { openListings: 10, listingIds: 1_000 };

test('a list that grew between two pages, repeating a call: set aside where a later answer shows a call logged in between, found where its total falls, not judged where nothing tells', () => {
  // Calls c1…c5 newest first; page 2 asked after a new call, c6, was logged: it repeats c4 and names total 6.
  const calls = [call('c5', T0 + 5), call('c4', T0 + 4), call('c3', T0 + 3), call('c2', T0 + 2)];
  const judgedWith = (later: Exchange) => {
    const out = sink();
    const walks = new ListingWalks(limits, 300, 0);
    ask(walks, page(1, 5, calls.slice(0, 2)), T0 + 21, out.into);
    ask(walks, page(2, 6, [calls[1]!, calls[2]!]), T0 + 22, out.into);
    ask(walks, later, T0 + 23, out.into);
    walks.closeAll(out.into);
    return out.counted;
  };
  // Page 1 asked again: c6, logged between the two asks, heads it.
  const moved = judgedWith(page(1, 6, [call('c6', T0 + 21), calls[0]!]));
  expect(moved.violations).toEqual([]);
  expect(moved.notJudged).toContain(WALK_NOT_JUDGED.moved);
  // Page 1 asked again names total 5 again: under no filter a total never falls, so nothing
  // arrived; the target is wrong.
  expect(judgedWith(page(1, 5, calls.slice(0, 2))).violations).toEqual([
    'page 2 of a listing repeats 1 call(s) of page 1',
    'pages of one list disagree on total: page 1 says 5, page 2 says 6',
  ]);
  // Page 1 asked again names total 6 and shows nothing new: the call that arrived may be anywhere in
  // a list whose order is not shown. Nothing tells, and the walk is not judged.
  expect(judgedWith(page(1, 6, calls.slice(0, 2)))).toMatchObject({
    violations: [],
    notJudged: [WALK_NOT_JUDGED.untold, WALK_NOT_JUDGED.onePage],
  });
});

test('on a target whose calls are sparse, a call logged mid-walk that a later answer shows after the window the target’s clock allows is not placed: the walk is not judged, and a total that falls still is', () => {
  // The newest moment before the walk is 15 minutes old: the target's clock is known only to be at
  // least that far behind the recorder's. c6 is logged between the two asks; page 1 asked again
  // 20 s later shows it, still ringing: the target's clock then is read as c6's moment 20 s ago.
  const old = [call('c5', T0 - 900), call('c4', T0 - 901), call('c3', T0 - 902)];
  const ringing = { ...call('c6', T0 + 21), status: 'ringing', startedAt: null, endedAt: null };
  const judgedWith = (laterTotal: number) => {
    const out = sink();
    const walks = new ListingWalks(limits, 300, 0);
    ask(walks, page(1, 5, old.slice(0, 2)), T0 + 20, out.into);
    ask(walks, page(2, 6, old.slice(1, 3)), T0 + 22, out.into);
    ask(walks, page(1, laterTotal, [ringing, old[0]!]), T0 + 42, out.into);
    walks.closeAll(out.into);
    return out.counted;
  };
  expect(judgedWith(6)).toMatchObject({ violations: [], notJudged: [WALK_NOT_JUDGED.unplaced, WALK_NOT_JUDGED.onePage] });
  expect(judgedWith(5).violations).toContain('pages of one list disagree on total: page 1 says 5, page 2 says 6');
});

test('pages that all name one total of a list calls never leave are judged, whatever arrived: a total that did not grow saw nothing arrive', () => {
  const calls = [call('c5', T0 + 5), call('c4', T0 + 4), call('c3', T0 + 3)];
  const out = sink();
  const walks = new ListingWalks(limits, 300, 0);
  ask(walks, page(1, 5, calls.slice(0, 2)), T0 + 21, out.into);
  ask(walks, page(2, 5, calls.slice(1, 3)), T0 + 22, out.into);
  ask(walks, page(1, 6, [call('c6', T0 + 21), calls[0]!]), T0 + 23, out.into);
  walks.closeAll(out.into);
  expect(out.counted.violations).toEqual(['page 2 of a listing repeats 1 call(s) of page 1']);
});

test('a walk whose totals differ and that nothing of its list follows is not judged; pages asked too far apart are not one walk', () => {
  const calls = [call('c5', T0 + 5), call('c4', T0 + 4), call('c3', T0 + 3), call('c2', T0 + 2)];
  const out = sink();
  const walks = new ListingWalks(limits, 300, 0);
  ask(walks, page(1, 5, calls.slice(0, 2)), T0 + 21, out.into);
  ask(walks, page(2, 6, calls.slice(2, 4)), T0 + 22, out.into);
  // Another list, its two pages ten minutes apart.
  ask(walks, page(1, 5, calls.slice(0, 2), '&type=audio'), T0 + 30, out.into);
  ask(walks, page(2, 5, calls.slice(2, 4), '&type=audio'), T0 + 630, out.into);
  walks.closeAll(out.into);
  expect(out.counted).toEqual({
    judged: 0,
    violations: [],
    notJudged: [WALK_NOT_JUDGED.farApart, WALK_NOT_JUDGED.untold, WALK_NOT_JUDGED.farApart],
  });
});

test('open walks are bounded: past the limit the oldest is judged and closed, its findings kept', () => {
  const out = sink();
  const walks = new ListingWalks({ openListings: 2, listingIds: 1_000 }, 300, 0);
  // A walk whose second page repeats its first, then two other lists open: the first is closed and judged.
  ask(walks, page(1, 4, [call('a', T0), call('b', T0 - 1)]), T0 + 21, out.into);
  ask(walks, page(2, 4, [call('b', T0 - 1), call('c', T0 - 2)]), T0 + 22, out.into);
  ask(walks, page(1, 4, [call('a', T0)], '&type=audio'), T0 + 23, out.into);
  expect(out.counted.violations).toEqual([]);
  ask(walks, page(1, 4, [call('a', T0)], '&type=video'), T0 + 24, out.into);
  expect(out.counted.violations).toContain('page 2 of a listing repeats 1 call(s) of page 1');
});

test('a walk holds at most 1,000 pages: a recording of endless empty pages is judged in walks of that many, in time that grows with it', () => {
  const out = sink();
  const walks = new ListingWalks(limits, 300, 0);
  const started = Date.now();
  for (let number = 1; number <= 2_500; number += 1) ask(walks, page(number, 0, []), T0 + 21 + number / 100, out.into);
  walks.closeAll(out.into);
  expect(out.counted).toEqual({ judged: 3, violations: [], notJudged: [] });
  expect(Date.now() - started).toBeLessThan(5_000);
});
