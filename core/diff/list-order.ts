// The order a target lists calls in, learned from its own pages: the words of the specification do
// not say whether List Calls is newest first, oldest first or in no order. Where both sides of a diff
// were seen to follow one order, lists are compared as sequences (answer-differences.ts); where they
// follow different ones, that is a reading that changed, not a violation.
import type { Exchange } from '../transport/exchange.ts';

export type ListOrder = 'newest-first' | 'oldest-first' | 'unordered';

/** An order both sides were seen to keep: lists compare as sequences, and a call's place on a page can be told. */
export type KeptOrder = Exclude<ListOrder, 'unordered'>;

/** The moment a call is ordered by: its initiatedAt, else its startedAt. */
export function momentOf(call: unknown): number | undefined {
  if (typeof call !== 'object' || call === null) return undefined;
  const { initiatedAt, startedAt } = call as Record<string, unknown>;
  const moment = typeof initiatedAt === 'number' ? initiatedAt : startedAt;
  return typeof moment === 'number' ? moment : undefined;
}

/**
 * The order the pages show, judged on every pair of neighbours whose moments differ: undefined when
 * no page tells (too few calls, all at one moment).
 */
export function learnListOrder(pages: readonly Exchange[]): ListOrder | undefined {
  let falling = 0;
  let rising = 0;
  for (const page of pages) {
    const data = (page.response.body as { data?: unknown } | undefined)?.data;
    if (page.response.status !== 200 || !Array.isArray(data)) continue;
    const moments = data.map(momentOf);
    for (let index = 1; index < moments.length; index++) {
      const [before, after] = [moments[index - 1], moments[index]];
      if (before === undefined || after === undefined || before === after) continue;
      if (before > after) falling++;
      else rising++;
    }
  }
  if (falling + rising === 0) return undefined;
  if (rising === 0) return 'newest-first';
  if (falling === 0) return 'oldest-first';
  return 'unordered';
}
