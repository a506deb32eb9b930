// Indexes over the call rows so that List Calls scans the whole data set only when no filter narrows it:
// each exact filter has a posting list of positions, each date filter a sorted column searched by bisection.
// A query walks the cheapest candidate list (or every row) and checks the other filters on its rows.
import type { CallRow } from './data/generate.ts';

export interface CallFilters {
  type?: string;
  mode?: string;
  status?: string;
  receiverType?: string;
  participantsCount?: number;
  /** Lower bound: calls that started at or after this UNIX time. */
  startedAt?: number;
  /** Upper bound: calls that ended at or before this UNIX time. */
  endedAt?: number;
  hasRecording?: boolean;
  uid?: string;
  /** onBehalfOf scoping: calls in which this uid took part, like `uid`. */
  onBehalfOf?: string;
}

export interface CallPage {
  total: number;
  rows: CallRow[];
}

export interface CallIndex {
  readonly size: number;
  query(filters: CallFilters, page: number, perPage: number): CallPage;
  bySessionId(sessionId: string): CallRow | undefined;
}

interface Candidate {
  size: number;
  /** True when `positions()` are already in list order (posting lists); a range must sort its slice first. */
  ordered: boolean;
  positions(): Int32Array;
  matches(row: CallRow): boolean;
}

const EMPTY = new Int32Array(0);
/** More than the largest data set (reference/fixtures.ts MAX_CALLS), as a power of two. */
const POSITION_SPAN = 2 ** 20;

export function buildCallIndex(rows: readonly CallRow[]): CallIndex {
  const exact = postings(rows, {
    type: (row) => row.type,
    mode: (row) => row.mode,
    status: (row) => row.status,
    receiverType: (row) => row.receiverType,
    participantsCount: (row) => String(row.totalParticipants),
    hasRecording: (row) => String(row.hasRecording),
    uid: (row) => row.uids,
  });
  const started = sortedColumn(rows, (row) => row.startedAt);
  const ended = sortedColumn(rows, (row) => row.endedAt);
  const bySession = new Map(rows.map((row) => [row.sessionId, row]));

  const exactCandidate = (list: Map<string, Int32Array>, key: string, matches: Candidate['matches']): Candidate => {
    const positions = list.get(key) ?? EMPTY;
    return { size: positions.length, ordered: true, positions: () => positions, matches };
  };

  const candidatesFor = (f: CallFilters): Candidate[] => {
    const out: Candidate[] = [];
    if (f.type !== undefined) out.push(exactCandidate(exact.type, f.type, (row) => row.type === f.type));
    if (f.mode !== undefined) out.push(exactCandidate(exact.mode, f.mode, (row) => row.mode === f.mode));
    if (f.status !== undefined) out.push(exactCandidate(exact.status, f.status, (row) => row.status === f.status));
    if (f.receiverType !== undefined) out.push(exactCandidate(exact.receiverType, f.receiverType, (row) => row.receiverType === f.receiverType));
    if (f.participantsCount !== undefined) {
      const count = f.participantsCount;
      out.push(exactCandidate(exact.participantsCount, String(count), (row) => row.totalParticipants === count));
    }
    if (f.hasRecording !== undefined) out.push(exactCandidate(exact.hasRecording, String(f.hasRecording), (row) => row.hasRecording === f.hasRecording));
    for (const uid of [f.uid, f.onBehalfOf]) {
      if (uid !== undefined) out.push(exactCandidate(exact.uid, uid, (row) => row.uids.includes(uid)));
    }
    if (f.startedAt !== undefined) {
      const from = lowerBound(started.values, f.startedAt);
      const bound = f.startedAt;
      out.push({ size: started.positions.length - from, ordered: false, positions: () => sortedSlice(started.positions, from, started.positions.length), matches: (row) => row.startedAt >= bound });
    }
    if (f.endedAt !== undefined) {
      const to = lowerBound(ended.values, f.endedAt + 1);
      const bound = f.endedAt;
      out.push({ size: to, ordered: false, positions: () => sortedSlice(ended.positions, 0, to), matches: (row) => row.endedAt !== undefined && row.endedAt <= bound });
    }
    return out;
  };

  return {
    size: rows.length,
    bySessionId: (sessionId) => bySession.get(sessionId),
    query(filters, page, perPage) {
      const from = (page - 1) * perPage;
      const candidates = candidatesFor(filters);
      if (candidates.length === 0) return { total: rows.length, rows: rows.slice(from, from + perPage) };
      const driver = cheapestDriver(candidates, rows.length);
      const others = candidates.filter((candidate) => candidate !== driver);
      if (driver && others.length === 0) {
        const positions = driver.positions();
        return { total: positions.length, rows: Array.from(positions.subarray(from, from + perPage), (position) => rows[position]!) };
      }
      // One pass in list order that counts every match and keeps only the page's: no list of all
      // matches is built, which on a large data set would be most of the cost of a request.
      const onPage: CallRow[] = [];
      let total = 0;
      const visit = (row: CallRow) => {
        if (!others.every((candidate) => candidate.matches(row))) return;
        if (total >= from && onPage.length < perPage) onPage.push(row);
        total += 1;
      };
      if (driver) for (const position of driver.positions()) visit(rows[position]!);
      else for (const row of rows) visit(row);
      return { total, rows: onPage };
    },
  };
}

/** One pass over the rows for every exact filter: for each, each key's positions in list order. */
function postings<Name extends string>(rows: readonly CallRow[], keysOf: Record<Name, (row: CallRow) => string | readonly string[]>): Record<Name, Map<string, Int32Array>> {
  const names = Object.keys(keysOf) as Name[];
  const lists = names.map(() => new Map<string, number[]>());
  const add = (list: Map<string, number[]>, key: string, position: number) => {
    const positions = list.get(key);
    if (positions) positions.push(position);
    else list.set(key, [position]);
  };
  for (let position = 0; position < rows.length; position += 1) {
    const row = rows[position]!;
    names.forEach((name, index) => {
      const keys = keysOf[name](row);
      if (typeof keys === 'string') add(lists[index]!, keys, position);
      else for (const key of keys) add(lists[index]!, key, position);
    });
  }
  return Object.fromEntries(names.map((name, index) => [name, new Map([...lists[index]!].map(([key, list]) => [key, Int32Array.from(list)]))])) as Record<Name, Map<string, Int32Array>>;
}

/**
 * Which candidate to walk: a posting list costs its length; a date range its length times the sort
 * that puts it in list order; walking every row costs the data set's size. Undefined: walk every row.
 */
function cheapestDriver(candidates: readonly Candidate[], rowCount: number): Candidate | undefined {
  let best: Candidate | undefined;
  let bestCost = rowCount;
  for (const candidate of candidates) {
    const cost = candidate.ordered ? candidate.size : candidate.size * Math.log2(candidate.size + 2);
    if (cost < bestCost) {
      best = candidate;
      bestCost = cost;
    }
  }
  return best;
}

/**
 * Positions of the rows that have the value, ordered by it, and the values in that order. Each
 * (value, position) pair is packed into one float so a native numeric sort orders them: values are
 * non-negative UNIX times below 2^32 and positions below 2^20, which 53 bits of mantissa hold.
 */
function sortedColumn(rows: readonly CallRow[], valueOf: (row: CallRow) => number | undefined) {
  const packed: number[] = [];
  for (let position = 0; position < rows.length; position += 1) {
    const value = valueOf(rows[position]!);
    if (value !== undefined) packed.push(value * POSITION_SPAN + position);
  }
  const keys = Float64Array.from(packed).sort();
  const positions = Int32Array.from(keys, (key) => key % POSITION_SPAN);
  return { positions, values: Float64Array.from(keys, (key) => Math.floor(key / POSITION_SPAN)) };
}

function lowerBound(values: Float64Array, target: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A slice of positions put back in list order (typed-array sort is numeric). */
const sortedSlice = (positions: Int32Array, from: number, to: number) => positions.slice(from, to).sort();
