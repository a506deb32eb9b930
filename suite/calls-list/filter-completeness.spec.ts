// A filter must not drop calls that match it: a sampled call is found again when the list is
// filtered by its own fields. The answer is read page by page, up to a fixed number of pages; when
// it is larger than that, every other filter the call matches is added, so the example still says
// something on a target with much data. Before the drawn examples, those that tell most run
// (call-filters.ts's tellingFromCalls): the largest ended call of each receiver type, by every field
// it has and a uid other than its initiator, which a draw of a few runs may never meet.
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { callsIn, type CallObject, type SeenCall } from '../../core/checks/calls-in.ts';
import { describeFilters, filterQuery, givenFilters, matchesFilter, type Filters } from '../../core/checks/filters.ts';
import { pageOf } from '../../core/checks/pagination.ts';
import { shown, type Violation } from '../../core/checks/violation.ts';
import type { Readings } from '../../core/checks/readings.ts';
import { judgeInOrder, MovementTally, reportMovement } from '../../core/checks/moving-data.ts';
import { filtersFromCall, filtersOfCall, tellingFromCalls, usableFilters } from '../../core/arbitraries/call-filters.ts';
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

/** The search, and when it found nothing in part of a larger answer, the search by every filter the call matches. */
async function searchFor(api: CallsApi, seen: SeenCall, filters: Filters, paging: PagingSupport, readings: Readings) {
  const result = await search(api, seen, filters, paging);
  if (result.found || result.complete) return result;
  return search(api, seen, filtersOfCall(seen, usableFilters(readings), readings), paging);
}

/** The call as an answer showed it, and that answer: the sample first, Get Call after. */
interface Shown {
  call: CallObject | undefined;
  answers: Exchange[];
}

/** The call as Get Call shows it now: a call sampled while ongoing may have moved on since, and filters built from what it was no longer match it. */
async function shownNow(api: CallsApi, seen: SeenCall): Promise<Shown> {
  const fetched = await api.getCall(String(seen.call.sessionId));
  return { call: callsIn(fetched).find(({ call }) => call.sessionId === seen.call.sessionId)?.call, answers: [fetched] };
}

function filterCompleteness(seen: SeenCall, now: Shown, result: Search, readings: Readings): Violation[] {
  // Not found in part of a larger answer proves nothing either way.
  if (result.found || !result.complete) return [];
  // A call that no longer matches the filters (it has moved on since it was sampled) is rightly not found.
  const call = now.call;
  if (call === undefined) return [];
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

    await property(
      filtersFromCall(calls, readings, 1),
      async ({ seen, filters }) => {
        // The call shown (by the sample, then by Get Call), a complete answer that lacks it asked after,
        // and the call shown again matching after that: in that order, no movement and no age of an
        // answer explains the call missing (moving-data.ts's judgeInOrder).
        // The first showing is the sample's. The retake at once asks Get Call, which behind a replica may
        // not have the call yet: it only decides whether to go on, so the sample stands in for it then.
        // Every showing after it, asked once the search's age is outlasted, is Get Call's alone.
        let asked = 0;
        const sample: Shown = { call: seen.call, answers: [seen.exchange] };
        const first = async (): Promise<Shown> => {
          asked += 1;
          if (asked === 1) return sample;
          const now = await shownNow(api, seen);
          return asked === 2 && now.call === undefined ? { ...sample, answers: now.answers } : now;
        };
        const outcome = tally.count(
          await judgeInOrder<Shown, Search>(
            {
              first,
              then: () => searchFor(api, seen, filters, paging, readings),
              judge: (now, result) => filterCompleteness(seen, now, result, readings),
              answersOf: (taken) => ('pages' in taken ? taken.pages : taken.answers),
              findingKey: (violation) => `${violation.requirement} ${violation.expected}`,
            },
            answerAge,
          ),
        );
        if (outcome.judged) verdict.record(outcome.violations);
      },
      { examples: tellingFromCalls(calls, readings) },
    );
    reportMovement(verdict, tally, 'CALLS-LIST-FILTER-COMPLETENESS', test.skip);
  },
);
