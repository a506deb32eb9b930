// The coverage of a run as counts, kept as exchanges are observed: each item the traffic touched,
// how often, by which test or recorded exchange first, and, for the items a filter's answer can
// tell about, the smallest number of calls an answer kept and whether one kept none. Plain JSON and
// mergeable, so that shards, merged reports and merged passive states add up to one tally; bounded,
// since its keys come from a fixed vocabulary (values outside the enums fall into one key each).
import { FILTER_NAMES, type FilterName } from '../checks/filters.ts';
import { ENUMS } from '../checks/filter-values.ts';
import type { Observation } from './observe.ts';

export interface TallyEntry {
  /** Exchanges that touched it. */
  n: number;
  /** The first test or recorded exchange that did: where to look, or what to run again. */
  by: string;
  /** Answers that kept no call at all. */
  empty?: number;
  /** The fewest calls an answer that kept some kept, and which one it was. */
  kept?: number;
  keptBy?: string;
}

export interface CoverageTally {
  exchanges: number;
  /** The most calls an unfiltered list said it held: what a filter's answer must fall short of to tell. */
  population?: { total: number; by: string };
  /** The most calls any list said it held, for when no unfiltered list was read. */
  anyTotal?: number;
  items: Record<string, TallyEntry>;
  /** Statuses got by values outside a filter's type or enum, per filter. */
  negativeStatuses: Partial<Record<FilterName, Record<string, number>>>;
}

export const emptyTally = (): CoverageTally => ({ exchanges: 0, items: {}, negativeStatuses: {} });

/** The values a filter's items go through one by one, as a query writes them; a filter without any is tried on a value the data holds. */
export const FILTER_VALUES: Partial<Record<FilterName, readonly string[]>> = { ...ENUMS, hasRecording: ['true', 'false'] };
const INTEGER = /^-?\d+$/;

/** Whether a value is one the filter's type takes: an enum value, an integer, a boolean, any uid. */
function withinType(name: FilterName, value: string): boolean {
  const values = FILTER_VALUES[name];
  if (values !== undefined) return values.includes(value);
  if (name === 'participantsCount') return /^\d+$/.test(value);
  if (name === 'startedAt' || name === 'endedAt') return INTEGER.test(value);
  return value !== '';
}

/** The item a filter value falls under: `type=audio` for an enum value, the filter's name for the rest. */
const valueItem = (name: FilterName, value: string): string => (FILTER_VALUES[name] !== undefined ? `${name}=${value}` : name);

/** Counts one observed exchange, first seen in `by`. */
export function tallyObservation(tally: CoverageTally, observation: Observation, by: string): void {
  tally.exchanges += 1;
  const touch = (key: string, total?: number) => {
    const entry = (tally.items[key] ??= { n: 0, by });
    entry.n += 1;
    if (total === 0) entry.empty = (entry.empty ?? 0) + 1;
    else if (total !== undefined && (entry.kept === undefined || total < entry.kept)) Object.assign(entry, { kept: total, keptBy: by });
  };
  const { operation, status, code } = observation;
  touch(`status ${operation} ${status}`);
  if (code !== undefined) touch(`code ${operation} ${code}`);
  if (observation.key !== 'given') touch(`key ${observation.key}`);
  if (observation.keyHeader !== undefined) touch('key header case');
  if (observation.onBehalfOf) {
    touch(`on-behalf-of ${operation}`);
    if (operation === 'getCall') touch(`on-behalf-of getCall ${status >= 200 && status < 300 ? 'answered' : 'refused'}`);
  }
  if (observation.scopeRefused) touch('scope refused');
  if (operation === 'getCall') {
    if (status >= 200 && status < 300) touch('get known');
    if (code === 'ERR_CALL_SESSION_NOT_FOUND') touch('get unknown');
    if (observation.encodedId) touch('get encoded');
  }
  if (operation === 'listCalls') tallyList(tally, observation, touch);
}

function tallyList(tally: CoverageTally, observation: Observation, touch: (key: string, total?: number) => void): void {
  const { total, filters = {}, status } = observation;
  const ok = status >= 200 && status < 300;
  const asked = FILTER_NAMES.filter((name) => filters[name] !== undefined);
  const valid = asked.filter((name) => withinType(name, filters[name]!));
  for (const name of asked.filter((name) => !valid.includes(name))) {
    touch(`negative ${name}`);
    const statuses = (tally.negativeStatuses[name] ??= {});
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  // An answer to a request with a value outside a filter's type tells nothing of the others.
  if (asked.length === valid.length && ok && total !== undefined) {
    for (const name of valid) touch(valueItem(name, filters[name]!), total);
    for (const edge of observation.edges ?? []) touch(`edge ${edge}`);
    for (let i = 0; i < valid.length; i += 1) for (let j = i + 1; j < valid.length; j += 1) touch(`pair ${valid[i]}+${valid[j]}`, total);
    tally.anyTotal = Math.max(tally.anyTotal ?? 0, total);
    if (valid.length === 0 && total > (tally.population?.total ?? -1))
      tally.population = { total, by: tally.items[`status listCalls ${status}`]!.by };
  }
  if (ok && total !== undefined && observation.page !== undefined && observation.pages !== undefined) {
    touch(`page ${positionOf(observation.page, observation.pages)}`);
  }
  if (observation.size !== undefined) {
    touch(`size name ${observation.size.name}`);
    if (observation.size.taken) touch('size taken');
  }
}

/** Where a page lies in its listing. */
export function positionOf(page: number, pages: number): 'first' | 'middle' | 'last' | 'past the end' {
  if (page <= 1) return 'first';
  if (page < pages) return 'middle';
  return page === pages ? 'last' : 'past the end';
}

/** One tally of two (shards, merged states): counts add up, the first witness of each is kept. */
export function mergeTallies(into: CoverageTally, from: CoverageTally): CoverageTally {
  into.exchanges += from.exchanges;
  for (const [key, entry] of Object.entries(from.items)) {
    const mine = into.items[key];
    if (mine === undefined) {
      into.items[key] = { ...entry };
      continue;
    }
    mine.n += entry.n;
    if (entry.empty !== undefined) mine.empty = (mine.empty ?? 0) + entry.empty;
    if (entry.kept !== undefined && (mine.kept === undefined || entry.kept < mine.kept))
      Object.assign(mine, { kept: entry.kept, keptBy: entry.keptBy });
  }
  if (from.population !== undefined && from.population.total > (into.population?.total ?? -1)) into.population = { ...from.population };
  if (from.anyTotal !== undefined) into.anyTotal = Math.max(into.anyTotal ?? 0, from.anyTotal);
  for (const [name, statuses] of Object.entries(from.negativeStatuses) as Array<[FilterName, Record<string, number>]>) {
    const mine = (into.negativeStatuses[name] ??= {});
    for (const [status, count] of Object.entries(statuses)) mine[status] = (mine[status] ?? 0) + count;
  }
  return into;
}
