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
