// How a rate is judged by whoever receives the requests: the most that fall within any one second.

/** The most of `times` (milliseconds, in any order) within any one second, a half-open window. */
export function busiestSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < sorted.length; last += 1) {
    while (sorted[last]! - sorted[first]! >= 1000) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/**
 * The same, for arrivals some of which are known only to lie within a span (`earliest` to `at`: the
 * counting door did not run meanwhile, counting-door.ts): the most arrivals certainly within any one
 * second. Each counts only for the seconds that hold its whole span, so a second is found too busy
 * only when it was, however the spans fell; an arrival known to the millisecond counts as it would
 * in busiestSecond.
 */
export function busiestSecondSeen(arrivals: ReadonlyArray<{ earliest: number; at: number }>): number {
  // A second holding the most can start where one of them may have arrived first.
  let most = 0;
  for (const { earliest: start } of arrivals) {
    let within = 0;
    for (const { earliest, at } of arrivals) if (earliest >= start && at < start + 1000) within += 1;
    most = Math.max(most, within);
  }
  return most;
}

/** The arrivals busiestSecondSeen counted in its busiest second, as the second's start and each one's span from it (for a failure's message). */
export function busiestSecondAt(arrivals: ReadonlyArray<{ earliest: number; at: number }>): string {
  let most: { start: number; within: Array<{ earliest: number; at: number }> } = { start: 0, within: [] };
  for (const { earliest: start } of arrivals) {
    const within = arrivals.filter(({ earliest, at }) => earliest >= start && at < start + 1000);
    if (within.length > most.within.length) most = { start, within };
  }
  const spans = most.within
    .sort((a, b) => a.earliest - b.earliest)
    .map(({ earliest, at }) => (earliest === at ? `+${earliest - most.start}` : `+${earliest - most.start}..${at - most.start}`));
  return `${most.within.length} in the second from ${new Date(most.start).toISOString()} (ms after it): ${spans.join(', ')}`;
}
