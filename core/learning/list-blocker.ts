// Most tests stand on a page of calls listed while learning the target. When the first page is not
// one, the target broke a requirement, and the tests that need calls cannot be judged: they are not
// in error (nothing went wrong with the suite or the network), they are blocked by that requirement.
// This names it by what the answer showed: a refusal breaks CALLS-LIST-OK, a body that is not JSON
// HTTP-JSON-BODIES, JSON that is not a pagination envelope PAGINATION-ENVELOPE. The requirement
// named must fail in the run, not only be blamed: usableListPage makes sure of it.
import { isObject, isSuccess } from '../checks/calls-in.ts';
import { pageOf } from '../checks/pagination.ts';
import { shown, type Violation } from '../checks/violation.ts';
import type { Exchange } from '../transport/exchange.ts';

export interface Blocker {
  /** The requirement the target broke, so that what stands on it cannot be judged. */
  requirement: string;
  /** One line saying what the answer showed. */
  saw: string;
  exchange: Exchange;
}

/**
 * What keeps a List Calls answer from being a page of calls, or undefined when it is one. A refusal
 * breaks `refusalBreaks`: CALLS-LIST-OK for the unfiltered list, CALLS-LIST-FILTER-VALUES-ACCEPTED
 * for a filter value the specification allows.
 */
export function listBlocker(firstPage: Exchange, refusalBreaks = 'CALLS-LIST-OK'): Blocker | undefined {
  if (pageOf(firstPage)) return undefined;
  const { status, headers, text, isJson, tooDeep, body } = firstPage.response;
  const blocker = (requirement: string, saw: string): Blocker => ({ requirement, saw, exchange: firstPage });
  const LIST = `GET ${listedPath(firstPage.request.url)}`;
  if (!isSuccess(firstPage)) return blocker(refusalBreaks, `${LIST} answered status ${status}, so no page of calls was listed`);
  // JSON nested too deep to walk is JSON all the same (json-text.ts): its envelope is what fails.
  if (tooDeep)
    return blocker(
      'PAGINATION-ENVELOPE',
      `${LIST} answered status ${status} with JSON nested deeper than any pagination envelope, too deep to judge: ${shown(text, 80)}`,
    );
  if (!isJson)
    return blocker(
      'HTTP-JSON-BODIES',
      `${LIST} answered status ${status} ${headers['content-type'] ?? 'without a content type'} that is not JSON: ${shown(text, 80)}`,
    );
  return blocker(
    'PAGINATION-ENVELOPE',
    `${LIST} answered status ${status} with JSON that is not a pagination envelope: ${envelopeFault(body)}`,
  );
}

/** `/calls?type=audio` of the request's URL, whatever the base before it. */
function listedPath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname.replace(/^.*(?=\/calls)/, '')}${parsed.search}`;
}

/** The first thing that keeps a JSON body from being a page: data an array, meta.pagination with integer fields. */
function envelopeFault(body: unknown): string {
  if (!isObject(body)) return `the body is ${shown(body, 60)}, not an object`;
  if (!Array.isArray(body.data)) return `data is ${shown(body.data, 60)}, not an array`;
  const meta = body.meta;
  if (!isObject(meta)) return `meta is ${shown(meta, 60)}, not an object`;
  if (!isObject(meta.pagination)) return `meta holds no pagination object (its fields: ${shown(Object.keys(meta), 80)})`;
  const pagination = meta.pagination;
  const wrong = ['total', 'count', 'current_page', 'total_pages', 'per_page'].filter(
    (field) => !Number.isInteger(pagination[field]) && !(field === 'per_page' && pagination[field] === undefined),
  );
  return `meta.pagination's ${wrong.map((field) => `${field} is ${shown(pagination[field], 30)}`).join(', ')}, not an integer`;
}

/**
 * The blocker's own violation, unless the checks of the learned answers already found its
 * requirement broken on that answer: so the requirement that blocks others always fails in the run.
 */
export function usableListPage(blocker: Blocker | undefined, found: readonly Violation[]): Violation[] {
  if (!blocker || found.some((violation) => violation.requirement === blocker.requirement && violation.exchange === blocker.exchange))
    return [];
  return [
    {
      check: 'usable_list_page',
      requirement: blocker.requirement,
      title: 'List Calls did not answer a page of calls',
      expected:
        'status 200 with a JSON pagination envelope: data an array, meta.pagination with integer total, count, current_page and total_pages',
      received: blocker.saw,
      exchange: blocker.exchange,
    },
  ];
}
