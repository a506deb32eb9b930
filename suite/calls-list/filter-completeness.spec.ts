// A filter must not drop calls that match it: a sampled call is found again when the list is
// filtered by its own fields. The answer is read page by page, up to a fixed number of pages; when
// it is larger than that, every other filter the call matches is added, so the example still says
// something on a target with much data.
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { callsIn, type CallObject, type SeenCall } from '../../core/checks/calls-in.ts';
import { describeFilters, filterQuery, givenFilters, matchesFilter, type Filters } from '../../core/checks/filters.ts';
import { pageOf } from '../../core/checks/pagination.ts';
import { shown, type Violation } from '../../core/checks/violation.ts';
import type { Readings } from '../../core/checks/readings.ts';
import { judgeStill, MovementTally, reportMovement } from '../../core/checks/moving-data.ts';
import { filtersFromCall, filtersOfCall, usableFilters } from '../../core/arbitraries/call-filters.ts';
import type { CallsApi } from '../../core/transport/api.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { pageQuery, type PagingSupport } from '../../core/learning/paging.ts';

const MAX_PAGES = 5;

/** Reads the answer to `filters` until the call is found, the answer ends, or MAX_PAGES are read. */
async function search(api: CallsApi, seen: SeenCall, filters: Filters, paging: PagingSupport) {
  const query = filterQuery(filters);
  let exchange: Exchange = await api.listCalls(query);
  const pages = [exchange];
  let found = callsIn(exchange).some(({ call }) => call.sessionId === seen.call.sessionId);
  let scanned = pageOf(exchange)?.items.length ?? 0;
  const total = () => pageOf(exchange)?.pagination.total ?? 0;
  for (let page = 2; !found && paging.page && page <= MAX_PAGES && scanned < total(); page += 1) {
    exchange = await api.listCalls({ ...query, ...pageQuery(paging, page) });
    pages.push(exchange);
    found = callsIn(exchange).some(({ call }) => call.sessionId === seen.call.sessionId);
    scanned += pageOf(exchange)?.items.length ?? 0;
  }
  // An answer that is not a list page (refused, or its envelope broken) says nothing of what it lacks.
  return { found, exchange, pages, scanned, complete: pageOf(exchange) !== undefined && scanned >= total(), total: total(), filters };
}

type Search = Awaited<ReturnType<typeof search>>;

/**
 * A search, and when it did not find the call, the call as Get Call shows it now: a call that was
 * ongoing when it was sampled may have ended since, and then filters built from what it was no
 * longer match it (moving-data.ts takes the search again when the data moved meanwhile).
 */
async function searchNow(api: CallsApi, seen: SeenCall, filters: Filters, paging: PagingSupport, readings: Readings) {
  let result = await search(api, seen, filters, paging);
  if (!result.found && !result.complete) result = await search(api, seen, filtersOfCall(seen, usableFilters(readings), readings), paging);
  if (result.found || !result.complete) return { answers: result.pages, result };
  const fetched = await api.getCall(String(seen.call.sessionId));
  const now = callsIn(fetched).find(({ call }) => call.sessionId === seen.call.sessionId)?.call;
  return { answers: [...result.pages, fetched], result, now };
}

function missing(seen: SeenCall, { result, now }: { result: Search; now?: CallObject }, readings: Readings): Violation[] {
  // Not found in part of a larger answer proves nothing either way.
  if (result.found || !result.complete) return [];
  // A call that no longer matches the filters (it has moved on since it was sampled) is rightly not found.
  const call = now ?? seen.call;
  if (givenFilters(result.filters).some((name) => !matchesFilter(call, name, result.filters[name], readings))) return [];
  return [
    {
      check: 'filter_completeness',
      requirement: 'CALLS-LIST-FILTER-COMPLETENESS',
      title: `call ${shown(seen.call.sessionId)} matches ${describeFilters(result.filters)} but is not among the ${result.total} calls returned`,
      expected: `call ${shown(seen.call.sessionId)} among the answers`,
      received: `${result.scanned} calls, all read, without it`,
      exchange: result.exchange,
    },
  ];
}

test(
  'CALLS-LIST-FILTER-COMPLETENESS for any call and any filters built from its own fields, the call is found again',
  requirement('CALLS-LIST-FILTER-COMPLETENESS'),
  async ({ api, verdict, property, targetSample, readings, paging, answerAge }) => {
    const calls = sampledCalls(targetSample);
    const tally = new MovementTally();

    await property(filtersFromCall(calls, readings, 1), async ({ seen, filters }) => {
      const outcome = tally.count(
        await judgeStill(
          () => searchNow(api, seen, filters, paging, readings),
          (attempt) => missing(seen, attempt, readings),
          answerAge,
        ),
      );
      if (outcome.judged) verdict.record(outcome.violations);
    });
    reportMovement(verdict, tally, 'CALLS-LIST-FILTER-COMPLETENESS', test.skip);
  },
);
