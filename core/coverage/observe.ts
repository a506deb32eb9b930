// What one exchange tried of the interface, as the coverage model counts it: its operation and
// status, the error code it got, the filters it asked for and what the answer kept, the page it
// read, how it carried the key, the Get Call id it named. Made from the exchange alone (the same
// redacted Exchange the checks read), so that an active run, a HAR file and the judging proxy
// observe the same traffic the same way. Small on purpose: it travels with every request record.
import type { OperationId } from '../../openapi/contract.ts';
import { headerOf, type Exchange } from '../transport/exchange.ts';
import { isObject } from '../checks/calls-in.ts';
import { answerErrorCodes } from '../checks/errors.ts';
import { FILTER_NAMES, type FilterName } from '../checks/filters.ts';
import { refusalOf } from '../checks/full-access.ts';
import { pageOf } from '../checks/pagination.ts';
import { PAGE_SIZE_NAMES } from '../learning/page-size-names.ts';

/** The codes the specification names, by the operations that can answer them. */
export const DOCUMENTED_CODES: Readonly<Record<OperationId, readonly string[]>> = {
  listCalls: ['AUTH_ERR_EMPTY_APIKEY', 'AUTH_ERR_APIKEY_NOT_FOUND'],
  getCall: ['AUTH_ERR_EMPTY_APIKEY', 'AUTH_ERR_APIKEY_NOT_FOUND', 'ERR_CALL_SESSION_NOT_FOUND'],
  markGroupConversationAsUnread: ['AUTH_ERR_EMPTY_APIKEY', 'AUTH_ERR_APIKEY_NOT_FOUND'],
};
const KNOWN_CODES = new Set(Object.values(DOCUMENTED_CODES).flat());

export interface Observation {
  operation: OperationId;
  status: number;
  /** The documented error code the answer carried, if any. */
  code?: string;
  /** How the key travelled: no apikey header, an empty one, or a value. */
  key: 'missing' | 'empty' | 'given';
  /** The key header's name as sent, when not all lower case (`APIKEY`, `ApiKey`). */
  keyHeader?: string;
  /** An onBehalfOf header was sent. */
  onBehalfOf?: true;
  /** List Calls: each filter asked for, with its raw value. */
  filters?: Partial<Record<FilterName, string>>;
  /** List Calls answered with a readable envelope: the answer's total and page count. */
  total?: number;
  pages?: number;
  /** The page asked for (1 when none was), unless the answer said it gave another. */
  page?: number;
  /** The page-size parameter sent (its name and value), and whether the answer's per_page took it. */
  size?: { name: string; value: string; taken: boolean };
  /** Date filters whose value is the very instant of a call the answer holds (the edge of both readings). */
  edges?: FilterName[];
  /** Get Call: the id's path segment needed percent-encoding. */
  encodedId?: true;
  /** The write was refused for its key's scope (4xx that is no key error, or a result saying success false). */
  scopeRefused?: true;
}

export function observe(exchange: Exchange): Observation {
  const { operation, request, response } = exchange;
  const url = new URL(request.url);
  const keyHeader = headerOf(request.headers, 'apikey');
  const code = answerErrorCodes(exchange).find((found) => KNOWN_CODES.has(found));
  const observation: Observation = {
    operation,
    status: response.status,
    ...(code !== undefined && { code }),
    key: keyHeader === undefined ? 'missing' : keyHeader[1].trim() === '' ? 'empty' : 'given',
    ...(keyHeader !== undefined && keyHeader[0] !== 'apikey' && { keyHeader: keyHeader[0] }),
    ...(headerOf(request.headers, 'onbehalfof') !== undefined && { onBehalfOf: true }),
  };
  if (operation === 'listCalls') return { ...observation, ...listPart(exchange, url) };
  if (operation === 'getCall') {
    const segment = url.pathname.split('/').pop() ?? '';
    return { ...observation, ...(segment.includes('%') && { encodedId: true }) };
  }
  const keyRefused = code !== undefined || response.status === 401;
  return { ...observation, ...(!keyRefused && refusalOf(exchange) !== undefined && { scopeRefused: true }) };
}

function listPart(exchange: Exchange, url: URL): Partial<Observation> {
  const params = url.searchParams;
  const filters: Partial<Record<FilterName, string>> = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value !== null) filters[name] = value;
  }
  const part: Partial<Observation> = Object.keys(filters).length > 0 ? { filters } : {};
  const envelope = pageOf(exchange);
  const sizeName = PAGE_SIZE_NAMES.find((name) => params.has(name));
  if (sizeName !== undefined) {
    const value = params.get(sizeName)!;
    part.size = {
      name: sizeName,
      value,
      taken: envelope?.pagination.per_page !== undefined && String(envelope.pagination.per_page) === value,
    };
  }
  const asked = params.get('page');
  // The page asked for (none asks for the first): a target that ignores it answers another, which
  // the position then does not credit, since the answer's own current_page must agree.
  const page = asked === null ? 1 : /^\d+$/.test(asked) ? Number(asked) : undefined;
  if (page !== undefined) part.page = page;
  if (envelope) {
    part.total = envelope.pagination.total;
    part.pages = envelope.pagination.total_pages;
    if (page !== undefined && envelope.pagination.current_page !== page && page <= envelope.pagination.total_pages) delete part.page;
    const edges = (['startedAt', 'endedAt'] as const).filter(
      (name) => filters[name] !== undefined && envelope.items.some((call) => isObject(call) && String(call[name]) === filters[name]),
    );
    if (edges.length > 0) part.edges = edges;
  }
  return part;
}
