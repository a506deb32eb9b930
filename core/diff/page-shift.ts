// Calls pushed off a page by calls arriving: on a living target a list's first page, newest first,
// gains the calls that arrived between two asks and loses as many from its end, settled calls among
// them. A settled call one answer lists and the other not is explained so only where the other
// answer's own data show the arrivals: calls it lists and the first does not, not yet settled, that
// began after every call the first answer holds (settling.ts's moments), on a page that does not
// hold the whole list. At most as many calls are explained as arrived.
import { callsIn } from '../checks/calls-in.ts';
import { pageOf } from '../checks/pagination.ts';
import { momentsOf } from '../checks/settling.ts';
import type { Exchange } from '../transport/exchange.ts';

type Call = Record<string, unknown>;

const firstMoment = (call: Call) => Math.min(...momentsOf(call));
const newestMoment = (answer: Exchange) => Math.max(...callsIn(answer).flatMap(({ call }) => momentsOf(call)));

/**
 * How many of the settled calls `lacking` does not list (and `listing` does) calls that arrived may
 * have pushed off `lacking`'s page: the calls only `lacking` lists that had not settled and began
 * after everything `listing` showed, where `lacking` is a page of a longer list.
 */
export function pushedOffCount(
  lacking: Exchange,
  listing: Exchange,
  onlyInLacking: readonly Call[],
  isStill: (call: Call) => boolean,
): number {
  const page = pageOf(lacking);
  if (page === undefined || page.pagination.total <= page.items.length) return 0;
  const before = newestMoment(listing);
  return onlyInLacking.filter((call) => !isStill(call) && firstMoment(call) > before).length;
}
