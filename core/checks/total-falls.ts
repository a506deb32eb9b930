// A list that calls never leave (unfiltered, or under filters no call leaves) only grows, and grows
// its total: every answer shows the store at some moment no older than MAX_ANSWER_AGE before it
// arrived (answer-age.ts), so an answer asked more than that after another arrived shows the store
// later than the other did, and may not name a smaller total. Where one does, the target is wrong
// whatever moved between the asks: its answers of one list cannot be one store's. The passive judge's
// page walks (passive/listing-walks.ts) and the diff's pages of one side (diff/cross-requests.ts)
// both read a walk whose totals differ this way.

/** One answer of the list: when it was asked and when it arrived (milliseconds, one clock), and its total. */
export interface TotalSeen {
  start: number;
  end: number;
  total: number;
}

/** Whether one of `answers`, asked more than `ageMs` after another arrived, names a smaller total than it. */
export function totalSeenToFall(answers: readonly TotalSeen[], ageMs: number): boolean {
  const answered = [...answers].sort((a, b) => a.end - b.end);
  const asked = [...answers].sort((a, b) => a.start - b.start);
  let most = -Infinity;
  let next = 0;
  for (const answer of asked) {
    while (next < answered.length && answered[next]!.end + ageMs < answer.start) most = Math.max(most, answered[next++]!.total);
    if (answer.total < most) return true;
  }
  return false;
}

/**
 * Whether `answer`'s total is one the list had, as `seen` (other answers of it) bound it: no smaller
 * than a total seen by an answer that arrived more than `ageMs` before it was asked (that answer
 * showed the store earlier than this one can), no larger than one seen by an answer asked more than
 * `ageMs` after it arrived (that one showed the store later). Unbounded where no answer is so far.
 */
export function totalWithinGrowth(seen: readonly TotalSeen[], answer: TotalSeen, ageMs: number): boolean {
  for (const other of seen) {
    if (other.end + ageMs < answer.start && other.total > answer.total) return false;
    if (other.start - ageMs > answer.end && other.total < answer.total) return false;
  }
  return true;
}
