// Indexes over the call rows so that List Calls never scans the data set per request: each exact
// filter has a posting list of positions, each date filter a sorted column searched by bisection.
// A query intersects the candidate lists of its filters, smallest first, and reads only its page's rows.
import type { CallRow } from './data/generate.ts';

export interface CallFilters {
  type?: string;
  mode?: string;
  status?: string;
  receiverType?: string;
  participantsCount?: number;
  /** Lower bound: calls that started (or, served so, were initiated) at or after this UNIX time. */
  startedAt?: number;
  /** Upper bound: calls that ended at or before this UNIX time. */
  endedAt?: number;
  hasRecording?: boolean;
  uid?: string;
  /** onBehalfOf scoping: calls in which this uid took part, like `uid` (and, served so, the calls of the user's groups). */
  onBehalfOf?: string;
}

/**
 * Which of a call's times the startedAt filter compares: its startedAt (the reference's reading), or
 * its initiatedAt, which the words allow too (startedAt is "also described as when it was initiated").
 */
export type StartedAtFilterField = 'startedAt' | 'initiatedAt';

/** How the index reads what the words leave open (the reference's own readings by default; reference/alternatives.ts). */
export interface IndexReadings {
  startedAtField?: StartedAtFilterField;
  /** Whether participantsCount counts the distinct users among the counted entries, not the entries. */
  participantsCountPeople?: boolean;
  /** Where onBehalfOf also scopes to the calls addressed to the user's groups: a group's members. */
  membersOf?: (guid: string) => readonly string[] | undefined;
  /** Whether the date filters match a call's time exactly, not as bounds. */
  exactDates?: boolean;
}

export interface CallPage {
  total: number;
  rows: CallRow[];
}

export interface CallIndex {
  readonly size: number;
  query(filters: CallFilters, page: number, perPage: number): CallPage;
  /** The same, cut at any offset: `count` rows from the `from`-th (0-based) of those the filters match. */
  range(filters: CallFilters, from: number, count: number): CallPage;
  bySessionId(sessionId: string): CallRow | undefined;
}

/** A date bound: how many rows it keeps, their positions put in list order (a sort), or a test of one row. */
interface Range {
  size: number;
  positions(): Int32Array;
  keeps(row: CallRow): boolean;
}

const EMPTY = new Int32Array(0);
/** Testing a row costs about this many times sorting a position; past that ratio a range is tested, not sorted. */
const RANGE_TEST_FACTOR = 8;
/** More than the largest data set (reference/fixtures.ts MAX_CALLS), as a power of two. */
const POSITION_SPAN = 2 ** 20;

export function buildCallIndex(rows: readonly CallRow[], readings: IndexReadings = {}): CallIndex {
  const { startedAtField = 'startedAt', participantsCountPeople = false, membersOf, exactDates = false } = readings;
  const exact = postings(rows, {
    type: (row) => row.type,
    mode: (row) => row.mode,
    status: (row) => row.status,
    receiverType: (row) => row.receiverType,
    participantsCount: (row) => String(participantsCountPeople ? row.people : row.totalParticipants),
    hasRecording: (row) => String(row.hasRecording),
    uid: (row) => row.uids,
    onBehalfOf: (row) => scopeOf(row, membersOf),
  });
  const started = sortedColumn(rows, (row) => row[startedAtField]);
  const ended = sortedColumn(rows, (row) => row.endedAt);
  const bySession = new Map(rows.map((row) => [row.sessionId, row]));

  /** The exact filters' posting lists (already in list order) and the date filters' ranges. */
  const candidatesFor = (f: CallFilters): { lists: Int32Array[]; ranges: Range[] } => {
    const lists: Int32Array[] = [];
    const ranges: Range[] = [];
    const exactly = (list: Map<string, Int32Array>, key: string) => lists.push(list.get(key) ?? EMPTY);
    if (f.type !== undefined) exactly(exact.type, f.type);
    if (f.mode !== undefined) exactly(exact.mode, f.mode);
    if (f.status !== undefined) exactly(exact.status, f.status);
    if (f.receiverType !== undefined) exactly(exact.receiverType, f.receiverType);
    if (f.participantsCount !== undefined) exactly(exact.participantsCount, String(f.participantsCount));
    if (f.hasRecording !== undefined) exactly(exact.hasRecording, String(f.hasRecording));
    if (f.uid !== undefined) exactly(exact.uid, f.uid);
    if (f.onBehalfOf !== undefined) exactly(exact.onBehalfOf, f.onBehalfOf);
    // Each a slice of its sorted column: from the bound on (startedAt) or up to it (endedAt), or,
    // matched exactly, the rows of that one value.
    const slice = (column: typeof started, from: number, to: number, keeps: Range['keeps']) =>
      ranges.push({ size: to - from, positions: () => sortedSlice(column.positions, from, to), keeps });
    if (f.startedAt !== undefined) {
      const bound = f.startedAt;
      const from = lowerBound(started.values, bound);
      if (exactDates) slice(started, from, lowerBound(started.values, bound + 1), (row) => row[startedAtField] === bound);
      else slice(started, from, started.positions.length, (row) => row[startedAtField] >= bound);
    }
    if (f.endedAt !== undefined) {
      const bound = f.endedAt;
      const to = lowerBound(ended.values, bound + 1);
      if (exactDates) slice(ended, lowerBound(ended.values, bound), to, (row) => row.endedAt === bound);
      else slice(ended, 0, to, (row) => row.endedAt !== undefined && row.endedAt <= bound);
    }
    return { lists, ranges };
  };

  const range = (filters: CallFilters, from: number, count: number): CallPage => {
    const { lists, ranges } = candidatesFor(filters);
    if (lists.length === 0 && ranges.length === 0) return { total: rows.length, rows: rows.slice(from, from + count) };
    // The posting lists are intersected smallest first, as sorted integer arrays. A date range is
    // intersected the same way when it is the smaller side; when it is much larger than what is
    // left, the rows left are tested against it instead of sorting the whole range.
    lists.sort((a, b) => a.length - b.length);
    ranges.sort((a, b) => a.size - b.size);
    let matched = lists.length > 0 ? lists.reduce((kept, next) => intersect(kept, next)) : ranges.shift()!.positions();
    for (const dates of ranges) {
      matched =
        dates.size < RANGE_TEST_FACTOR * matched.length
          ? intersect(matched, dates.positions())
          : matched.filter((position) => dates.keeps(rows[position]!));
    }
    return { total: matched.length, rows: Array.from(matched.subarray(from, from + count), (position) => rows[position]!) };
  };

  return {
    size: rows.length,
    bySessionId: (sessionId) => bySession.get(sessionId),
    query: (filters, page, perPage) => range(filters, (page - 1) * perPage, perPage),
    range,
  };
}

/** The same list read from its end, so that page 1 holds the oldest calls (the alternative oldest-first). */
export function oldestFirst(range: CallIndex['range']): CallIndex['query'] {
  return (filters, page, perPage) => {
    const { total } = range(filters, 0, 0);
    const to = total - (page - 1) * perPage;
    if (to <= 0) return { total, rows: [] };
    const from = Math.max(0, to - perPage);
    return { total, rows: range(filters, from, to - from).rows.reverse() };
  };
}

/**
 * The users in whose scope onBehalfOf puts a call: those who took part in it, and where groups are
 * in the scope, the members of the group it was addressed to.
 */
export function scopeOf(row: CallRow, membersOf: IndexReadings['membersOf']): readonly string[] {
  if (!membersOf || row.receiverType !== 'group') return row.uids;
  return [...new Set([...row.uids, ...(membersOf(row.receiver) ?? [])])];
}

/** The positions in both sorted arrays, sorted: a merge when their sizes are close, else a search of the larger for each of the smaller. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const [smaller, larger] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Int32Array(smaller.length);
  let count = 0;
  if (smaller.length * Math.log2(larger.length + 1) < larger.length) {
    let low = 0;
    for (const position of smaller) {
      low = lowerBound(larger, position, low);
      if (low < larger.length && larger[low] === position) out[count++] = position;
    }
  } else {
    let j = 0;
    for (let i = 0; i < smaller.length && j < larger.length;) {
      const left = smaller[i]!;
      const right = larger[j]!;
      if (left === right) {
        out[count++] = left;
        i += 1;
        j += 1;
      } else if (left < right) i += 1;
      else j += 1;
    }
  }
  return out.subarray(0, count);
}

/** One pass over the rows for every exact filter: for each, each key's positions in list order. */
function postings<Name extends string>(
  rows: readonly CallRow[],
  keysOf: Record<Name, (row: CallRow) => string | readonly string[]>,
): Record<Name, Map<string, Int32Array>> {
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
  return Object.fromEntries(
    names.map((name, index) => [name, new Map([...lists[index]!].map(([key, list]) => [key, Int32Array.from(list)]))]),
  ) as Record<Name, Map<string, Int32Array>>;
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

/** The first index at or after `start` whose value is not below `target`. */
function lowerBound(values: Float64Array | Int32Array, target: number, start = 0): number {
  let low = start;
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
