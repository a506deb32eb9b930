// The pages of one listing in recorded traffic, judged together (issue 58, item 2): a client that
// walks a list's pages (the same filters, page size, onBehalfOf and key, asked within the settling
// window) shows what one page cannot: a call on two pages, pages that hold more or fewer calls than
// total says, pages that disagree on total or total_pages (core/checks/listing-pages.ts).
//
// A walk is judged when it closes: when a page it already holds is asked again (the client walks
// again), when a page comes too long after its first (settleSeconds), when it is the oldest of too
// many open walks, or when the traffic ends. Only what the comparison needs is kept: each page's
// session ids, totals, each call's state (moving-data.ts's callState) and whether it had settled.
//
// A living target moves while a client walks, and a page asked later may then repeat a call or name
// a larger total. Movement is never assumed, and a wrong answer is never excused without evidence;
// a walk's findings stand only where the traffic shows the target wrong whatever moved, under the
// rules the active suite judges movement by (core/checks/moving-data.ts and settling.ts):
// - a list whose filters calls never leave (none, type, mode, receiverType, uid, onBehalfOf) only
//   grows, and grows its total: pages that all name one total saw nothing arrive, and are judged;
//   pages whose totals differ are judged where the list's total is seen to fall (a page or a later
//   answer of the list, asked more than the answers' age after a page, naming less than it);
// - otherwise (the totals differ, or a filter a call may leave: status, hasRecording,
//   participantsCount, the dates), the walk is not judged where the calls' own data show they
//   moved between the asks: a call the walk shows in two states, the earlier not yet settled on the
//   target's clock (settledBy); a call an answer of the same list shows with a moment after the
//   target's clock at the walk's first page and no later than its clock at the last (the target's
//   clock read from its own data, over-time.ts); or, for a filter a call may leave, a call on the
//   walk's pages not yet settled. Nor where a call off the walk's pages has a moment past that
//   window: the clock is known only as far as the calls' moments show it, and where they are sparse
//   it may be further ahead, the call then arriving during the walk. Nor, the totals differing,
//   where nothing tells either way: the list's order is not shown, so no answer shows that nothing
//   arrived. Equal totals under a filter a call may leave, with none of this, are judged.
import { callsIn } from '../core/checks/calls-in.ts';
import { listingPages, type ListedPage } from '../core/checks/listing-pages.ts';
import { callState } from '../core/checks/moving-data.ts';
import { pageOf } from '../core/checks/pagination.ts';
import { totalSeenToFall } from '../core/checks/total-falls.ts';
import { momentsOf, settledBy, TERMINAL_STATUSES } from '../core/checks/settling.ts';
import type { Violation } from '../core/checks/violation.ts';
import { headerOf, type Exchange } from '../core/transport/exchange.ts';
import { PAGE_SIZE_NAMES } from '../core/learning/paging.ts';
import { momentOf, type Span } from './over-time.ts';
import { slim } from './sightings.ts';

/** How much the walks keep. */
export interface WalkLimits {
  /** Walks open at once; past it the oldest is judged and closed. */
  openListings: number;
  /** Session ids kept across the open walks; past it the oldest walks are judged and closed. */
  listingIds: number;
}

/** Why the pages of a listing were not judged together, as the report counts them. */
export const WALK_NOT_JUDGED = {
  onePage: 'a listing of which the traffic held one page only',
  farApart: 'a listing whose pages were asked too far apart in time to be one walk',
  noTime: 'a List Calls page without a recorded time, which cannot be placed in a walk',
  moved: 'a walk whose calls show they moved between its asks (new calls, calls changing)',
  unplaced:
    'a walk after whose first page its list showed a call the target’s clock, as its answers show it, cannot place before or after the walk’s last page',
  untold: 'a walk whose pages disagree on total, which nothing in the traffic shows to be wrong (a total falling) or calls to explain',
} as const;

/** What the walks report into: the passive judge's tallies. */
export interface WalkSink {
  judged(): void;
  report(violations: readonly Violation[], source: string, related: string[]): void;
  notJudged(reason: string): void;
}

/** A page as the judge hands it over: its redacted exchange, where and when it was recorded, and the key it carried. */
export interface AskedPage {
  exchange: Exchange;
  source: string;
  span: Span | undefined;
  /** The key's class: its hash, or that it had none a recording named. */
  keyClass: string;
}

interface KeptPage extends ListedPage {
  source: string;
  span: Span;
  /** The target's clock at the ask: what earlier answers and this one showed. */
  clock: number | undefined;
  /** Each call's state, and whether it had settled by the clock at the ask. */
  states: Map<string, { state: string; settled: boolean }>;
}

interface Walk {
  /** The list (filters, scope, key) and page size. */
  key: string;
  /** The list whatever the page size: later answers of it may show calls that arrived. */
  list: string;
  host: string;
  askedSize: number | undefined;
  /** Filters a call may leave: a total that stays the same does not show that nothing moved. */
  moving: boolean;
  pages: Map<number, KeptPage>;
  farApart: boolean;
  /** What it keeps, counted against WalkLimits.listingIds: its session ids, and each page as one at least. */
  ids: number;
  /** When its first page was asked and its last answered (the recorder's milliseconds). */
  start: number;
  end: number;
}

/** The moments of the calls each list's answers showed last (the latest answer's, the last seen kept), and when it was last asked and with what total. */
interface ListSeen {
  lastStart: number;
  lastTotal: number;
  moments: Map<string, number[]>;
}

const CALLS_KEPT_PER_LIST = 200;
const LISTS_KEPT = 500;
const HOSTS_KEPT = 1_000;
/** Pages of one walk: past it the walk is judged and a new one opened (a client walks far fewer). */
const PAGES_PER_WALK = 1_000;
/**
 * Whether a call may leave the list its filters make as it moves (then a total that stays the same
 * does not show a still list): a call never leaves a terminal status, never loses a recording
 * (settling.ts's one-way rule) and never stops having taken part, but leaves a ringing or ongoing
 * status, hasRecording=false, a count of joined participants, and a date filter's window as its
 * times arrive.
 */
function leavable(params: URLSearchParams): boolean {
  const status = params.get('status');
  if (status !== null && !TERMINAL_STATUSES.has(status)) return true;
  if (params.has('hasRecording') && params.get('hasRecording') !== 'true') return true;
  return ['participantsCount', 'startedAt', 'endedAt'].some((name) => params.has(name));
}

export class ListingWalks {
  private readonly open = new Map<string, Walk>();
  private readonly lists = new Map<string, ListSeen>();
  /** Per host, the most the target's clock is known to be ahead of the recorder's (seconds): newest moment shown less the answer's end. */
  private readonly offsets = new Map<string, number>();
  private keptIds = 0;

  constructor(
    private readonly limits: WalkLimits,
    /** The settling window (SETTLE_SECONDS): how far apart a walk's pages may be asked, and how long a call may still move after its last moment. */
    private readonly settleSeconds: number,
    /** MAX_ANSWER_AGE: how much older than its arrival an answer may be. */
    private readonly ageSeconds: number,
  ) {}

  /** Every answer with calls: the target's clock against the recorder's. */
  sawAnswer(host: string, span: Span | undefined, calls: ReturnType<typeof callsIn>): void {
    const moment = momentOf(calls);
    if (moment === undefined || !span) return;
    const ahead = moment - span.end / 1000;
    if (ahead <= (this.offsets.get(host) ?? -Infinity)) return;
    this.offsets.delete(host);
    this.offsets.set(host, ahead);
    if (this.offsets.size > HOSTS_KEPT) this.offsets.delete(this.offsets.keys().next().value as string);
  }

  /** A successful List Calls answer: kept in its walk, which may close others. */
  keep(asked: AskedPage, clock: number | undefined, sink: WalkSink): void {
    const page = pageOf(asked.exchange);
    if (!page) return;
    const identity = identityOf(asked, page.pagination.current_page);
    this.sawList(identity.list, asked, page.pagination.total);
    if (!asked.span) return sink.notJudged(WALK_NOT_JUDGED.noTime);
    const kept = keptPage(asked, identity.page, clock, this.settleSeconds);
    let walk = this.open.get(identity.key);
    if (walk && !this.fits(walk, kept)) {
      const farApart = !walk.pages.has(kept.page) && walk.pages.size < PAGES_PER_WALK;
      if (farApart) walk.farApart = true;
      this.close(walk, sink);
      walk = { ...identity, pages: new Map(), farApart, ids: 0, start: kept.span.start, end: kept.span.end };
    }
    walk ??= { ...identity, pages: new Map(), farApart: false, ids: 0, start: kept.span.start, end: kept.span.end };
    this.open.delete(walk.key);
    this.open.set(walk.key, walk);
    walk.pages.set(kept.page, kept);
    walk.start = Math.min(walk.start, kept.span.start);
    walk.end = Math.max(walk.end, kept.span.end);
    const counted = Math.max(1, kept.ids.length);
    walk.ids += counted;
    this.keptIds += counted;
    while (this.open.size > this.limits.openListings || (this.keptIds > this.limits.listingIds && this.open.size > 1))
      this.close(this.open.values().next().value as Walk, sink);
  }

  /** Every walk still open judged: the traffic has ended. */
  closeAll(sink: WalkSink): void {
    for (const walk of [...this.open.values()]) this.close(walk, sink);
  }

  /** Whether a page belongs to a walk: a page it does not hold yet, asked within the window of its others. */
  private fits(walk: Walk, page: KeptPage): boolean {
    if (walk.pages.has(page.page) || walk.pages.size >= PAGES_PER_WALK) return false;
    return Math.max(walk.end, page.span.end) - Math.min(walk.start, page.span.start) <= this.settleSeconds * 1000;
  }

  private sawList(list: string, asked: AskedPage, total: number): void {
    const seen = this.lists.get(list) ?? { lastStart: -Infinity, lastTotal: total, moments: new Map<string, number[]>() };
    if (asked.span && asked.span.start > seen.lastStart) {
      seen.lastStart = asked.span.start;
      seen.lastTotal = total;
    }
    for (const { call } of callsIn(asked.exchange)) {
      if (typeof call.sessionId !== 'string') continue;
      seen.moments.delete(call.sessionId);
      seen.moments.set(call.sessionId, momentsOf(call));
      if (seen.moments.size > CALLS_KEPT_PER_LIST) seen.moments.delete(seen.moments.keys().next().value as string);
    }
    this.lists.delete(list);
    this.lists.set(list, seen);
    if (this.lists.size > LISTS_KEPT) this.lists.delete(this.lists.keys().next().value as string);
  }

  private close(walk: Walk, sink: WalkSink): void {
    this.open.delete(walk.key);
    this.keptIds -= walk.ids;
    const pages = [...walk.pages.values()];
    if (pages.length < 2) return sink.notJudged(walk.farApart ? WALK_NOT_JUDGED.farApart : WALK_NOT_JUDGED.onePage);
    const violations = listingPages(pages, walk.askedSize);
    if (violations.length === 0) return sink.judged();
    const standing = this.standing(walk, pages);
    if (standing !== undefined) return sink.notJudged(standing);
    sink.judged();
    const sources = new Map(pages.map((page) => [page.exchange, page.source]));
    for (const violation of violations) {
      const source = sources.get(violation.exchange!) ?? pages[0]!.source;
      sink.report(
        [violation],
        source,
        [...new Set(pages.map((page) => page.source))].filter((other) => other !== source),
      );
    }
  }

  /**
   * Why a walk's findings are set aside (WALK_NOT_JUDGED), or undefined when they stand. Pages that
   * disagree on total stand only where the list's total is seen to fall under filters calls never
   * leave; anything else that moved between the asks (calls arriving, leaving, changing) leaves the
   * walk not judged: the list's order is not shown, so no answer can show that nothing arrived.
   */
  private standing(walk: Walk, pages: readonly KeptPage[]): string | undefined {
    const asked = [...pages].sort((a, b) => a.span.start - b.span.start);
    const totalsDiffer = asked.some((page) => page.total !== asked[0]!.total);
    if (!walk.moving && !totalsDiffer) return undefined;
    if (!walk.moving && this.totalFell(walk, asked)) return undefined;
    if (changedBetween(asked) || (walk.moving && unsettledOn(asked))) return WALK_NOT_JUDGED.moved;
    const arrival = this.arrivalNear(walk, asked);
    if (arrival === 'during') return WALK_NOT_JUDGED.moved;
    if (arrival === 'unplaced') return WALK_NOT_JUDGED.unplaced;
    return totalsDiffer ? WALK_NOT_JUDGED.untold : undefined;
  }

  /**
   * Under filters calls never leave, a list's total never falls: a page, or a later answer of the
   * list (under any page size), asked after another page was answered names a smaller total than it.
   * Later by more than the answers' age, so that an old answer is not taken for a fall.
   */
  private totalFell(walk: Walk, asked: readonly KeptPage[]): boolean {
    const seen = this.lists.get(walk.list);
    const answers = asked.map(({ span, total }) => ({ start: span.start, end: span.end, total }));
    // The list's latest answer is known by when it was asked only: it counts as a later answer, never an earlier one.
    if (seen !== undefined) answers.push({ start: seen.lastStart, end: Infinity, total: seen.lastTotal });
    return totalSeenToFall(answers, this.ageSeconds * 1000);
  }

  /**
   * A call an answer of the list showed (the walk's or a later one) with a moment (logged, started,
   * ended, a join or a leave) after the target's clock at the walk's first ask and no later than its
   * clock at the last ('during'): the recorder's time at the last added to the most the target's
   * clock was seen ahead of the recorder's, a second for whole seconds and the answers' age allowed.
   * That most is only what the calls' moments showed: where they are sparse the target's clock may be
   * further ahead, and a call off the walk's pages with a moment after that window ('unplaced') may
   * have arrived before the last ask as well as after it.
   */
  private arrivalNear(walk: Walk, asked: readonly KeptPage[]): 'during' | 'unplaced' | undefined {
    const from = asked[0]!.clock;
    const ahead = this.offsets.get(walk.host);
    const seen = this.lists.get(walk.list);
    if (from === undefined || ahead === undefined || !seen) return undefined;
    const until = asked.at(-1)!.span.end / 1000 + ahead + 1 + this.ageSeconds;
    let unplaced = false;
    for (const [id, moments] of seen.moments) {
      if (moments.some((moment) => moment > from && moment <= until)) return 'during';
      unplaced ||= moments.some((moment) => moment > until) && !asked.some((page) => page.states.has(id));
    }
    return unplaced ? 'unplaced' : undefined;
  }
}

/** A call the walk shows in two states, the earlier answer showing it not yet settled: it moved between the asks. */
function changedBetween(asked: readonly KeptPage[]): boolean {
  const first = new Map<string, { state: string; settled: boolean }>();
  for (const page of asked)
    for (const [id, now] of page.states) {
      const earlier = first.get(id);
      if (!earlier) first.set(id, now);
      else if (earlier.state !== now.state && !earlier.settled) return true;
    }
  return false;
}

/** A call on the walk's pages not yet settled at its ask: under a filter it may leave, it may have left. */
const unsettledOn = (asked: readonly KeptPage[]): boolean =>
  asked.some((page) => [...page.states.values()].some((entry) => !entry.settled));

function keptPage(asked: AskedPage, number: number, clock: number | undefined, settleSeconds: number): KeptPage {
  const { items, pagination } = pageOf(asked.exchange)!;
  const calls = callsIn(asked.exchange);
  const own = momentOf(calls);
  const at = own === undefined ? clock : clock === undefined ? own : Math.max(clock, own);
  const states = new Map<string, { state: string; settled: boolean }>();
  const ids: string[] = [];
  for (const { call } of calls) {
    if (typeof call.sessionId !== 'string') continue;
    ids.push(call.sessionId);
    states.set(call.sessionId, { state: callState(call), settled: settledBy(call, at, settleSeconds) });
  }
  // A page whose items are not calls with ids holds as many unnamed items: they still count against total.
  for (let index = ids.length; index < items.length; index += 1) ids.push(`(item ${index + 1} of page ${number})`);
  return {
    page: number,
    ids,
    total: pagination.total,
    totalPages: pagination.total_pages,
    ...(pagination.per_page !== undefined && { perPage: pagination.per_page }),
    exchange: slim(asked.exchange),
    source: asked.source,
    span: asked.span!,
    clock: at,
    states,
  };
}

/** The walk a page belongs to: its list (filters, scope, key), its page size, and its page number. */
function identityOf(asked: AskedPage, answered: number): Pick<Walk, 'key' | 'list' | 'host' | 'askedSize' | 'moving'> & { page: number } {
  const url = new URL(asked.exchange.request.url);
  const params = new URLSearchParams(url.searchParams);
  // The page asked for, as the active suite compares pages; a page parameter not a page number, the page the answer names.
  const page = params.has('page') ? Number(params.get('page')) : 1;
  const sizeName = PAGE_SIZE_NAMES.find((name) => params.has(name));
  const size = sizeName === undefined ? undefined : Number(params.get(sizeName));
  params.delete('page');
  for (const name of PAGE_SIZE_NAMES) params.delete(name);
  params.sort();
  const onBehalfOf = headerOf(asked.exchange.request.headers, 'onBehalfOf')?.[1] ?? '';
  const list = JSON.stringify([url.origin, url.pathname, params.toString(), onBehalfOf, asked.keyClass]);
  return {
    key: JSON.stringify([list, sizeName ?? '', size ?? '']),
    list,
    host: url.origin,
    askedSize: size !== undefined && Number.isInteger(size) && size > 0 ? size : undefined,
    moving: leavable(params),
    page: Number.isInteger(page) && page > 0 ? page : answered,
  };
}
