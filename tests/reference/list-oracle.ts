// The documented semantics of List Calls' filters, computed naively over the store's rows: the
// oracle that the reference's indexed answers are compared with.
import type { CallRow } from '../../reference/data/generate.ts';
import type { CallFilters } from '../../reference/call-index.ts';

/** The nine filters; the type is shared with the index, the semantics below are restated. */
export type ListQuery = Omit<CallFilters, 'onBehalfOf'>;

/** Exact match for enums, participant count and recording flag; uid and onBehalfOf mean "took part"; startedAt is a lower bound, endedAt an upper one. */
export function expectedRows(rows: readonly CallRow[], query: ListQuery, onBehalfOf?: string): CallRow[] {
  const exact = <K extends 'type' | 'mode' | 'status' | 'receiverType' | 'hasRecording'>(row: CallRow, key: K) =>
    query[key] === undefined || row[key] === query[key];
  return rows.filter(
    (row) =>
      exact(row, 'type') &&
      exact(row, 'mode') &&
      exact(row, 'status') &&
      exact(row, 'receiverType') &&
      exact(row, 'hasRecording') &&
      (query.participantsCount === undefined || row.totalParticipants === query.participantsCount) &&
      (query.startedAt === undefined || row.startedAt >= query.startedAt) &&
      (query.endedAt === undefined || (row.endedAt !== undefined && row.endedAt <= query.endedAt)) &&
      (query.uid === undefined || row.uids.includes(query.uid)) &&
      (onBehalfOf === undefined || row.uids.includes(onBehalfOf)),
  );
}

/** The List Calls path for a query, every value encoded. */
export function listPath(query: ListQuery, extra: Record<string, string | number> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...query, ...extra })) {
    if (value !== undefined) search.append(name, String(value));
  }
  return `/calls?${search}`;
}

export const sessionIdsOf = (items: ReadonlyArray<{ sessionId: string }>) => items.map((item) => item.sessionId);
