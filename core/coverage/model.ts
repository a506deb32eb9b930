// What a run tried of the interface, item by item, from its tally: each item covered (on data that
// could tell a right answer from a wrong one, where a filter is concerned), tried on data that
// cannot tell, or not covered, with the reason in words. The same for an active run, a HAR file and
// the judging proxy, since all three tally the same observations. It describes the run; it changes
// the verdict only under a floor the user sets (COVERAGE_MIN, belowFloor).
import type { OperationId } from '../../openapi/contract.ts';
import { FILTER_NAMES, type FilterName } from '../checks/filters.ts';
import { DOCUMENTED_CODES } from './observe.ts';
import { FILTER_VALUES, type CoverageTally, type TallyEntry } from './tally.ts';

export type CoverageState = 'covered' | 'weak' | 'missing';

export interface CoverageItem {
  /** Stable across runs (`filters/type=audio`, `pairs/mode+uid`): what compare matches. */
  id: string;
  dimension: DimensionId;
  operation: OperationId;
  label: string;
  requirements: string[];
  /** covered; weak: tried only on data that cannot tell; missing: not covered. */
  state: CoverageState;
  /** Why it is weak or missing, in words. */
  why?: string;
  /** The test or recorded exchange that covered it (or tried it). */
  by?: string;
  /** Exchanges that touched it. */
  count: number;
}

export const DIMENSIONS = {
  operations: 'Operations and their documented answers',
  filters: 'Filter values (on data that tells)',
  pairs: 'Filter pairs, AND-narrowing (on data that tells)',
  paging: 'Pages and page sizes',
  access: 'Keys and acting users',
  'get-call': 'Get Call identifiers',
  negative: "Values outside a filter's type or enum",
} as const;
type DimensionId = keyof typeof DIMENSIONS;

interface DimensionSummary {
  id: DimensionId;
  label: string;
  covered: number;
  weak: number;
  missing: number;
  total: number;
  /** covered / total, in whole percent (weak items do not count). */
  percent: number;
}

export interface Coverage {
  /** Exchanges the model was computed from. */
  exchanges: number;
  /** The most calls an unfiltered list held: a filter's answer tells when it keeps fewer, and some. */
  population?: number;
  dimensions: DimensionSummary[];
  items: CoverageItem[];
  /** Every status each operation answered with, and how often. */
  statuses: Record<string, Record<string, number>>;
  /** Statuses got by values outside each filter's type. */
  negativeStatuses: Partial<Record<FilterName, Record<string, number>>>;
  byOperation: Record<string, { covered: number; weak: number; missing: number; missingItems: string[] }>;
}

export interface CoverageContext {
  /** Recorded traffic, not a run of the suite: what is missing was not in the traffic. */
  passive?: boolean;
  /** The run ran some of its tests only (--grep, --shard of one, a project): missing items may be elsewhere. */
  narrowed?: boolean;
  /** Writes were allowed (ALLOW_WRITES): without, mark-unread is never sent. */
  allowWrites?: boolean;
}

const FILTER_REQUIREMENT = (name: FilterName) => `CALLS-LIST-FILTER-${name.replace(/[A-Z]/g, (letter) => `-${letter}`).toUpperCase()}`;
const CODE_REQUIREMENT: Readonly<Record<string, string>> = {
  AUTH_ERR_EMPTY_APIKEY: 'AUTH-EMPTY-KEY',
  AUTH_ERR_APIKEY_NOT_FOUND: 'AUTH-INVALID-KEY',
  ERR_CALL_SESSION_NOT_FOUND: 'CALLS-GET-NOT-FOUND',
};
const SUCCESS_REQUIREMENT: Readonly<Record<OperationId, string>> = {
  listCalls: 'CALLS-LIST-OK',
  getCall: 'CALLS-GET-OK',
  markGroupConversationAsUnread: 'CHAT-UNREAD-OK',
};
const OPERATIONS = Object.keys(SUCCESS_REQUIREMENT) as OperationId[];

interface Planned {
  id: string;
  dimension: DimensionId;
  operation: OperationId;
  label: string;
  requirements: string[];
  /** The tally keys any of which covers it. */
  keys: string[];
  /** Judged on whether its answers kept some calls and dropped some. */
  tells?: boolean;
  /** Why it is missing when the default does not say it best. */
  missingWhy?: (tally: CoverageTally) => string | undefined;
}

/** Every item a run can cover, in the order the reports list them. */
function plannedItems(): Planned[] {
  return [
    ...operationItems(),
    ...filterItems(),
    ...filterEdgeItems(),
    ...pairItems(),
    ...pagingItems(),
    ...accessItems(),
    ...getCallItems(),
    ...negativeItems(),
  ];
}

/** Each operation's success, then each code its documentation names. */
function operationItems(): Planned[] {
  return OPERATIONS.flatMap((operation): Planned[] => [
    {
      id: `operations/${operation} success`,
      dimension: 'operations',
      operation,
      label: `${operation}: a success (2xx)`,
      requirements: [SUCCESS_REQUIREMENT[operation]],
      keys: [200, 201, 202, 203, 204, 206].map((status) => `status ${operation} ${status}`),
    },
    ...DOCUMENTED_CODES[operation].map((code): Planned => ({
      id: `operations/${operation} ${code}`,
      dimension: 'operations',
      operation,
      label: `${operation}: ${code}`,
      requirements: [CODE_REQUIREMENT[code]!],
      keys: [`code ${operation} ${code}`],
    })),
  ]);
}

/** Each value of a filter that has a list of them, or the filter itself on a value the data holds. */
function filterItems(): Planned[] {
  return FILTER_NAMES.flatMap((name): Planned[] => {
    const values = FILTER_VALUES[name];
    const requirements = [FILTER_REQUIREMENT(name)];
    if (values === undefined)
      return [
        {
          id: `filters/${name}`,
          dimension: 'filters',
          operation: 'listCalls',
          label: `${name} on a value the data holds`,
          requirements,
          keys: [name],
          tells: true,
        },
      ];
    return values.map((value): Planned => ({
      id: `filters/${name}=${value}`,
      dimension: 'filters',
      operation: 'listCalls',
      label: `${name}=${value}`,
      requirements,
      keys: [`${name}=${value}`],
      tells: true,
    }));
  });
}

function filterEdgeItems(): Planned[] {
  return (['startedAt', 'endedAt'] as const).map((name): Planned => ({
    id: `filters/${name} edge`,
    dimension: 'filters',
    operation: 'listCalls',
    label: `${name} at a call's own instant (the edge of every reading)`,
    requirements: [FILTER_REQUIREMENT(name), 'CALLS-LIST-DATE-FILTER-SEMANTICS'],
    keys: [`edge ${name}`],
  }));
}

/** Every two filters together, each pair once, in the order FILTER_NAMES lists them. */
function pairItems(): Planned[] {
  return FILTER_NAMES.flatMap((first, i) =>
    FILTER_NAMES.slice(i + 1).map((second): Planned => {
      const pair = `${first}+${second}`;
      return {
        id: `pairs/${pair}`,
        dimension: 'pairs',
        operation: 'listCalls',
        label: pair,
        requirements: ['CALLS-LIST-AND-NARROWING'],
        keys: [`pair ${pair}`],
        tells: true,
      };
    }),
  );
}

function pagingItems(): Planned[] {
  const paging = (position: string, label: string): Planned => ({
    id: `paging/${position}`,
    dimension: 'paging',
    operation: 'listCalls',
    label,
    requirements: ['PAGINATION-PAGES-PARTITION', 'PAGINATION-PAGE-PARAMETERS'],
    keys: [`page ${position}`],
  });
  return [
    paging('first', 'the first page'),
    paging('middle', 'a page between the first and the last'),
    paging('last', 'the last page of several'),
    paging('past the end', 'a page past the last'),
    {
      id: 'paging/page size taken',
      dimension: 'paging',
      operation: 'listCalls',
      label: 'a page size asked for and taken (per_page says so)',
      requirements: ['PAGINATION-PAGE-PARAMETERS', 'PAGINATION-PAGE-SIZE-BOUNDS'],
      keys: ['size taken'],
      missingWhy: pageSizeNotTaken,
    },
  ];
}

/** Why no page size counts as taken when the run asked for some under names the answers never echoed. */
function pageSizeNotTaken(tally: CoverageTally): string | undefined {
  const names = Object.keys(tally.items)
    .filter((key) => key.startsWith('size name '))
    .map((key) => key.slice('size name '.length));
  return names.length > 0 ? `not found: no answer took a page size under ${names.join(', ')} (per_page never said so)` : undefined;
}

function accessItems(): Planned[] {
  const access = (id: string, operation: OperationId, label: string, requirements: string[], keys: string[]): Planned => ({
    id: `access/${id}`,
    dimension: 'access',
    operation,
    label,
    requirements,
    keys,
  });
  return [
    access('key missing', 'listCalls', 'no apikey header', ['AUTH-APIKEY-HEADER', 'AUTH-EMPTY-KEY'], ['key missing']),
    access(
      'key unknown',
      'listCalls',
      'a key the target does not know (answered AUTH_ERR_APIKEY_NOT_FOUND)',
      ['AUTH-INVALID-KEY'],
      OPERATIONS.map((operation) => `code ${operation} AUTH_ERR_APIKEY_NOT_FOUND`),
    ),
    access(
      'header case',
      'listCalls',
      'the apikey header named in another case',
      ['AUTH-HEADER-NAME-CASE-INSENSITIVE'],
      ['key header case'],
    ),
    access(
      'scope refused',
      'markGroupConversationAsUnread',
      'a write refused for its key (a key without fullAccess)',
      ['CHAT-UNREAD-REQUIRES-FULL-ACCESS'],
      ['scope refused'],
    ),
    access('on behalf of list', 'listCalls', 'onBehalfOf on List Calls', ['CALLS-LIST-ON-BEHALF-OF'], ['on-behalf-of listCalls']),
    access(
      'on behalf of get answered',
      'getCall',
      'onBehalfOf on Get Call, answered (a user who took part)',
      ['CALLS-GET-ON-BEHALF-OF'],
      ['on-behalf-of getCall answered'],
    ),
    access(
      'on behalf of get refused',
      'getCall',
      'onBehalfOf on Get Call, refused (a user who did not)',
      ['CALLS-GET-ON-BEHALF-OF-OUTSIDER'],
      ['on-behalf-of getCall refused'],
    ),
    access(
      'on behalf of unread',
      'markGroupConversationAsUnread',
      'onBehalfOf on mark-unread',
      ['CHAT-UNREAD-ACTING-USER'],
      ['on-behalf-of markGroupConversationAsUnread'],
    ),
  ];
}

function getCallItems(): Planned[] {
  const get = (id: string, label: string, requirements: string[], keys: string[]): Planned => ({
    id: `get-call/${id}`,
    dimension: 'get-call',
    operation: 'getCall',
    label,
    requirements,
    keys,
  });
  return [
    get('known id', 'an id the target holds (answered)', ['CALLS-GET-OK'], ['get known']),
    get('unknown id', 'an id the target does not hold (ERR_CALL_SESSION_NOT_FOUND)', ['CALLS-GET-NOT-FOUND'], ['get unknown']),
    get('encoded id', 'an id whose characters need percent-encoding', ['CALLS-GET-NOT-FOUND'], ['get encoded']),
  ];
}

/** A value outside each filter's type or values; uid has none, any string being a uid. */
function negativeItems(): Planned[] {
  return FILTER_NAMES.filter((filter) => filter !== 'uid').map((name): Planned => ({
    id: `negative/${name}`,
    dimension: 'negative',
    operation: 'listCalls',
    label: `${name} outside its ${FILTER_VALUES[name] !== undefined ? 'values' : 'type'}`,
    requirements: ['CALLS-LIST-FILTER-VALUES-ACCEPTED', 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT'],
    keys: [`negative ${name}`],
  }));
}

const PLANNED = plannedItems();

/** The coverage of a run, from its tally. */
export function coverageOf(tally: CoverageTally, context: CoverageContext = {}): Coverage {
  const population = tally.population?.total ?? tally.anyTotal;
  const notTried = context.passive
    ? 'not in the traffic judged'
    : `not tried in this run${context.narrowed ? ' (the run was narrowed: --grep, a shard or a project; another part of it may cover it)' : ''}`;
  const items = PLANNED.map((planned): CoverageItem => {
    const entries = planned.keys.flatMap((key) => (tally.items[key] ? [tally.items[key]] : []));
    const count = entries.reduce((sum, entry) => sum + entry.n, 0);
    const base = {
      id: planned.id,
      dimension: planned.dimension,
      operation: planned.operation,
      label: planned.label,
      requirements: planned.requirements,
      count,
    };
    if (entries.length === 0) {
      const writesOff = planned.operation === 'markGroupConversationAsUnread' && !context.passive && context.allowWrites === false;
      const why = writesOff ? 'not allowed: writes are off (ALLOW_WRITES)' : (planned.missingWhy?.(tally) ?? notTried);
      return { ...base, state: 'missing', why };
    }
    if (!planned.tells) return { ...base, state: 'covered', by: entries[0]!.by };
    return { ...base, ...telling(entries[0]!, population) };
  });
  const statuses: Record<string, Record<string, number>> = {};
  for (const [key, entry] of Object.entries(tally.items)) {
    const [kind, operation, status] = key.split(' ');
    if (kind === 'status' && operation !== undefined && status !== undefined) (statuses[operation] ??= {})[status] = entry.n;
  }
  return {
    exchanges: tally.exchanges,
    ...(population !== undefined && { population }),
    dimensions: (Object.keys(DIMENSIONS) as DimensionId[]).map((id) =>
      summarise(
        id,
        items.filter((item) => item.dimension === id),
      ),
    ),
    items,
    statuses,
    negativeStatuses: tally.negativeStatuses,
    byOperation: Object.fromEntries(
      OPERATIONS.map((operation) => {
        const mine = items.filter((item) => item.operation === operation);
        const counts = summarise('operations', mine);
        return [
          operation,
          {
            covered: counts.covered,
            weak: counts.weak,
            missing: counts.missing,
            missingItems: mine.filter((item) => item.state !== 'covered').map((item) => item.id),
          },
        ];
      }),
    ),
  };
}

/** A filter's item: covered when an answer kept some calls and fewer than the whole data. */
function telling(entry: TallyEntry, population: number | undefined): Pick<CoverageItem, 'state' | 'why' | 'by'> {
  if (entry.kept !== undefined && population !== undefined && entry.kept < population) return { state: 'covered', by: entry.keptBy! };
  if (entry.kept === undefined)
    return { state: 'weak', by: entry.by, why: 'no such data: every answer was empty, so a filter that kept nothing would pass as well' };
  return {
    state: 'weak',
    by: entry.by,
    why: `no data that tells: every answer kept all ${population ?? entry.kept} calls, so a filter that dropped nothing would pass as well`,
  };
}

function summarise(id: DimensionId, items: readonly CoverageItem[]): DimensionSummary {
  const count = (state: CoverageState) => items.filter((item) => item.state === state).length;
  const covered = count('covered');
  return {
    id,
    label: DIMENSIONS[id],
    covered,
    weak: count('weak'),
    missing: count('missing'),
    total: items.length,
    percent: items.length === 0 ? 100 : Math.floor((covered * 100) / items.length),
  };
}

/** Each dimension under the floor (COVERAGE_MIN, in percent), as `label: 40% (2 of 5 covered)`; none when all reach it. */
export function belowFloor(coverage: Coverage, floor: number): string[] {
  return coverage.dimensions
    .filter((dimension) => dimension.percent < floor)
    .map((dimension) => `${dimension.label}: ${dimension.percent}% (${dimension.covered} of ${dimension.total} covered)`);
}
