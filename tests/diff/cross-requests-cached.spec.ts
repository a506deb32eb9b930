// A clean candidate behind a cache, on real loopback traffic: the reference served through two doors
// over one living store (reference/two-doors.ts), the candidate's lists cached ten seconds
// (reference/aged-answers.ts), the store's clock stepped by the test. The candidate answers page 1
// from before calls arrived and page 2 after, so its pages overlap and name two totals, while the
// primary, asked after the arrivals, names one total in both passes. The pages are judged on the
// candidate's own answers (cross-requests.ts): its total never fell, so nothing is said. Judging them
// because the primary stood still, as the diff once did, reported this clean candidate as a regression.
import { test, expect } from '@playwright/test';
import { openTwoDoors } from '../../reference/two-doors.ts';
import { DATA_NOW } from '../../reference/data/directory.ts';
import { HEAD_START_SECONDS } from '../../reference/live/living-calls.ts';
import { loadDiffConfig } from '../../core/run/config.ts';
import { Pacer } from '../../core/transport/rate-limit.ts';
import type { Wire } from '../../core/transport/wire.ts';
import type { Query } from '../../core/transport/api.ts';
import { diffSide, type DiffSide, type LearnedSide } from '../../core/diff/run-diff.ts';
import { crossRequestViolations } from '../../core/diff/cross-requests.ts';
import { listingPages, type ListedPage } from '../../core/checks/listing-pages.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { pageOf } from '../../core/checks/pagination.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import type { Comparison } from '../../core/diff/diff-tally.ts';
import type { PlannedRequest } from '../../core/diff/read-plan.ts';

const PRIMARY_KEYS = { fullAccess: 'primary-cached-full-key-51d7', readOnly: 'primary-cached-readonly-key-c02e' };
const CANDIDATE_KEYS = { fullAccess: 'candidate-cached-full-key-8a4f', readOnly: 'candidate-cached-readonly-key-3b9d' };
/** Seconds the store's clock steps between the candidate's first answer of page 1 and the plan's pages: calls arrive. */
const STEP_SECONDS = 5;

const pagesRequest = (number: number): PlannedRequest => ({
  operation: 'listCalls',
  kind: 'pages',
  label: `List Calls page=${number}`,
  query: number === 1 ? {} : { page: number },
  key: 'full',
});

const listed = (exchange: Exchange, page: number): ListedPage => {
  const { total, total_pages: totalPages, per_page: perPage } = pageOf(exchange)!.pagination;
  return { page, ids: callsIn(exchange).map(({ call }) => String(call.sessionId)), total, totalPages, perPage: perPage!, exchange };
};

const learnedOf = (exchanges: Exchange[]) =>
  ({ learned: { exchanges, sample: { calls: [], exchanges }, paging: { page: true } }, order: undefined }) as unknown as LearnedSide;

test('a clean candidate whose lists are cached, answering page 1 from before calls arrived and page 2 after, breaks no requirement across its pages', async () => {
  let now = DATA_NOW + HEAD_START_SECONDS;
  const doors = await openTwoDoors(
    { calls: 300, keys: PRIMARY_KEYS, live: { rate: 1, clock: () => now } },
    { keys: CANDIDATE_KEYS, answerAge: { list: { mode: 'cache', seconds: 10 } } },
  );
  const wires: Wire[] = [];
  try {
    const config = loadDiffConfig({
      CALLS_BASE_URL: doors.primary,
      CHAT_BASE_URL: doors.primary,
      API_KEY: PRIMARY_KEYS.fullAccess,
      CANDIDATE_CALLS_BASE_URL: doors.candidate,
      CANDIDATE_CHAT_BASE_URL: doors.candidate,
      CANDIDATE_API_KEY: CANDIDATE_KEYS.fullAccess,
    });
    const pacer = new Pacer(config.primary.maxRps);
    const [primary, candidate] = [diffSide(config.primary, pacer, wires), diffSide(config.candidate, pacer, wires)];
    const ask = (side: DiffSide, query: Query) => side.api.listCalls(query, {});
    // What learning would have asked of the candidate: page 1, now kept by its cache.
    const learning = await ask(candidate, {});
    now += STEP_SECONDS;
    const comparisons: Comparison[] = [];
    for (const number of [1, 2]) {
      const { query } = pagesRequest(number);
      comparisons.push({
        request: pagesRequest(number),
        primary: await ask(primary, query!),
        again: await ask(primary, query!),
        candidate: await ask(candidate, query!),
      });
    }
    const totals = (which: 'primary' | 'again' | 'candidate') =>
      comparisons.map((comparison) => pageOf(comparison[which])!.pagination.total);
    // The case the diff once misjudged: the primary named one total in both passes, the candidate two.
    expect(new Set([...totals('primary'), ...totals('again')]).size).toBe(1);
    expect(totals('candidate')).toEqual([totals('primary')[0]! - STEP_SECONDS, totals('primary')[0]]);
    // Its pages taken as one moment do break the partition: calls that arrived pushed page 1's last onto page 2.
    const candidatePages = comparisons.map((comparison, index) => listed(comparison.candidate, index + 1));
    expect(listingPages(candidatePages).map(({ requirement }) => requirement)).toContain('PAGINATION-PAGES-PARTITION');
    const found = crossRequestViolations(
      comparisons,
      { primary: learnedOf([]), candidate: learnedOf([learning]) },
      {
        settleSeconds: config.primary.settleSeconds,
        answerAgeSeconds: config.primary.maxAnswerAgeSeconds,
      },
    );
    expect([...found.candidate.values()].flat()).toEqual([]);
    expect([...found.primary.values()].flat()).toEqual([]);
  } finally {
    await Promise.all(wires.map((wire) => wire.close()));
    await doors.close();
  }
});
