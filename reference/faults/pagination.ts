// Faults in the pagination envelope and in the pages themselves: counts, totals, overlaps, gaps.
import type { Answer, AnsweredRequest, Fault } from './fault.ts';
import { allRows, pageOfRows } from './list-rows.ts';

interface Pagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
}

/** Rewrites the pagination of successful List Calls answers. */
function pagination(change: (pagination: Pagination, request: AnsweredRequest) => object) {
  return (request: AnsweredRequest, answer: Answer): Answer => {
    const body = answer.body as { data?: unknown[]; meta?: { pagination?: Pagination } };
    if (request.operation !== 'listCalls' || answer.status !== 200 || !body.meta?.pagination) return answer;
    return { ...answer, body: { ...body, meta: { ...body.meta, pagination: change(body.meta.pagination, request) } } };
  };
}

const FILTERS = ['type', 'mode', 'status', 'receiverType', 'participantsCount', 'startedAt', 'endedAt', 'hasRecording', 'uid'];

export const PAGINATION_FAULTS: Fault[] = [
  {
    name: 'list-206-while-more-pages',
    description: 'List Calls answers 206 Partial Content, not 200, while more pages remain.',
    requirements: ['CALLS-LIST-OK'],
    hooks: () => ({
      answer: (request, answer) => {
        const meta = (answer.body as { meta?: { pagination?: Pagination } }).meta?.pagination;
        return request.operation === 'listCalls' && answer.status === 200 && meta && meta.current_page < meta.total_pages
          ? { ...answer, status: 206 }
          : answer;
      },
    }),
  },
  {
    name: 'filtered-total-as-string',
    description: 'Filtered lists report meta.pagination.total as a string.',
    requirements: ['PAGINATION-ENVELOPE'],
    hooks: () => ({
      answer: pagination((meta, request) =>
        FILTERS.some((name) => request.search.has(name)) ? { ...meta, total: String(meta.total) } : meta,
      ),
    }),
  },
  {
    // What Stoplight Prism's dynamic mode answers from the vendor's published calls.json, whose list
    // schema puts the call and the meta under an empty-named property. No page of calls: the tests
    // that need one are blocked by PAGINATION-ENVELOPE, not left in error.
    name: 'list-items-wrapped-as-prism-mock',
    description:
      "List Calls wraps every item and meta in an object under an empty-named property, as Prism's dynamic mode of the vendor's OpenAPI does.",
    requirements: ['PAGINATION-ENVELOPE', 'CALL-FIELD-SESSION-ID'],
    hooks: () => ({
      answer: (request, answer) => {
        const body = answer.body as { data?: unknown[]; meta?: unknown };
        if (request.operation !== 'listCalls' || answer.status !== 200 || !Array.isArray(body.data)) return answer;
        return { ...answer, body: { data: body.data.map((call) => ({ '': call })), meta: { '': body.meta } } };
      },
    }),
  },
  {
    name: 'count-is-per-page',
    description: 'meta.pagination.count is always per_page, also on a short last page.',
    requirements: ['PAGINATION-COUNT-IS-PAGE-SIZE'],
    hooks: () => ({ answer: pagination((meta) => ({ ...meta, count: meta.per_page })) }),
  },
  {
    name: 'page-one-item-too-many',
    description: 'Each page holds per_page + 1 items (an inclusive upper bound), and count says so.',
    requirements: ['PAGINATION-COUNT-WITHIN-BOUNDS'],
    hooks: () => ({
      listRows: (filters, page, perPage, next) => pageOfRows(allRows(next, filters), page, perPage + 1, (page - 1) * perPage),
    }),
  },
  {
    name: 'total-pages-rounded-down',
    description: 'total_pages is total / per_page rounded down, losing the last partial page.',
    requirements: ['PAGINATION-TOTAL-PAGES-CONSISTENT'],
    hooks: () => ({ answer: pagination((meta) => ({ ...meta, total_pages: Math.floor(meta.total / meta.per_page) })) }),
  },
  {
    name: 'pages-overlap-from-page-3',
    description: 'From page 3 on, each page starts one item early, repeating the last item of the page before.',
    requirements: ['PAGINATION-PAGES-PARTITION'],
    hooks: () => ({
      listRows: (filters, page, perPage, next) =>
        page < 3 ? next(filters, page, perPage) : pageOfRows(allRows(next, filters), page, perPage, (page - 1) * perPage - 1),
    }),
  },
  {
    name: 'pages-overlap-from-page-2',
    description: 'From page 2 on, each page starts one item early, repeating the last item of the page before.',
    requirements: ['PAGINATION-PAGES-PARTITION'],
    hooks: () => ({
      listRows: (filters, page, perPage, next) =>
        page < 2 ? next(filters, page, perPage) : pageOfRows(allRows(next, filters), page, perPage, (page - 1) * perPage - 1),
    }),
  },
  {
    name: 'page-echoed-first-page-served',
    description: "List Calls echoes the page asked for in current_page but always serves the first page's items.",
    requirements: ['PAGINATION-PAGES-PARTITION'],
    hooks: () => ({ listRows: (filters, _page, perPage, next) => next(filters, 1, perPage) }),
  },
  {
    name: 'pages-skip-an-item',
    description: 'From page 2 on, each page starts one item late, so one item between pages is never listed.',
    requirements: ['PAGINATION-PAGES-PARTITION'],
    hooks: () => ({
      listRows: (filters, page, perPage, next) =>
        page < 2 ? next(filters, page, perPage) : pageOfRows(allRows(next, filters), page, perPage, (page - 1) * perPage + 1),
    }),
  },
  {
    name: 'total-drifts-with-page',
    description: 'meta.pagination.total grows by one with each page number, so pages disagree on the total.',
    requirements: ['PAGINATION-PAGES-PARTITION'],
    hooks: () => ({
      answer: pagination((meta) => {
        const total = meta.total + meta.current_page - 1;
        return { ...meta, total, total_pages: Math.ceil(total / meta.per_page) };
      }),
    }),
  },
  {
    name: 'total-capped-at-1000',
    description: 'total stops at 1000 (a capped count query), so on a large data set the pages hold more calls than total says.',
    requirements: ['PAGINATION-PAGES-PARTITION'],
    calls: 3000,
    hooks: () => ({
      answer: pagination((meta) => {
        const total = Math.min(meta.total, 1000);
        return { ...meta, total, total_pages: Math.ceil(total / meta.per_page) };
      }),
    }),
  },
  {
    name: 'recordings-join-duplicates-calls',
    description: 'Calls with two recordings are listed twice (a join on recordings), so two list items share a sessionId.',
    requirements: ['CALL-SESSION-ID-UNIQUE'],
    hooks: ({ store }) => ({
      listRows: (filters, page, perPage, next) => {
        const rows = allRows(next, filters).flatMap((row) =>
          row.hasRecording && store.materialize(row).recordings.length > 1 ? [row, row] : [row],
        );
        return pageOfRows(rows, page, perPage);
      },
    }),
  },
];
