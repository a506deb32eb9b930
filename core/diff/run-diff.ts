// A diff run: both sides learned (their readings, and the order they list calls in), the read plan
// drawn from the primary's data, and each planned request asked of the primary twice (or of the
// primary and a secondary trusted copy, when given) and of the candidate once, close together and
// in a random order of its own (Scientist's rule: movement then hits both sides alike). Every request goes through each side's transport, paced by MAX_RPS together.
// Where ALLOW_WRITES=true, mark-unread's plan (write-plan.ts) is asked the same way, each side on its own fixture.
import { CallsApi, type Query, type RequestOptions } from '../transport/api.ts';
import { Transport, secretPlaceholders } from '../transport/transport.ts';
import { directWire, type Wire } from '../transport/wire.ts';
import type { Pacer } from '../transport/rate-limit.ts';
import { InFlightLimit } from '../transport/in-flight.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { SuiteConfig } from '../run/config.ts';
import { learnTarget, type LearnedTarget } from '../learning/learn-target.ts';
import { learnListOrder, type ListOrder } from './list-order.ts';
import { EXTENDED_KEY, readPlan, UNKNOWN_KEY, type PlannedRequest } from './read-plan.ts';
import type { Comparison } from './diff-tally.ts';
import { markRequestOf, writePlan, writesAllowed } from './write-plan.ts';
import type { DiffOperation } from './diff-settings.ts';

export interface DiffSide {
  api: CallsApi;
  config: SuiteConfig;
}

/** One side of a diff over its own wire (kept in `wires`, for the caller to close), paced by the `pacer` both sides share. */
export function diffSide(config: SuiteConfig, pacer: Pacer, wires: Wire[]): DiffSide {
  const wire = directWire(
    secretPlaceholders(config),
    { maxBodyBytes: config.maxBodyBytes, timeoutMs: config.requestTimeoutMs },
    config.maxInFlight,
  );
  wires.push(wire);
  const transport = new Transport(wire, { config, pacer, inFlight: new InFlightLimit(config.maxInFlight) });
  return { api: new CallsApi(transport, config), config };
}

export interface LearnedSide {
  learned: LearnedTarget;
  order: ListOrder | undefined;
}

export interface DiffAsked {
  primary: LearnedSide;
  candidate: LearnedSide;
  plan: PlannedRequest[];
  comparisons: Comparison[];
  /** The operations not asked at all, each with why (mark-unread, without ALLOW_WRITES=true). */
  notCompared: Array<{ operation: DiffOperation; reason: string }>;
}

/** Planned requests asked at once: each one's three asks are sequential, in their own order. */
const REQUESTS_AT_ONCE = 4;

async function learnSide(side: DiffSide, seed: number): Promise<LearnedSide> {
  const { config } = side;
  const learned = await learnTarget(side.api, seed, {
    settleSeconds: config.settleSeconds,
    maxAnswerAgeSeconds: config.maxAnswerAgeSeconds,
    ...(config.pageSizeParameter !== undefined && { pageSizeNames: [config.pageSizeParameter] }),
  });
  return { learned, order: learnListOrder(learned.sample.exchanges) };
}

/**
 * The plan's query as this side names the page size: the words do not show the parameter's name, and
 * each side was learned under its own (paging.ts), so a page of a size is asked of each as it reads it.
 */
function querySideNames(query: Query, names: { primary: string; side: string }): Query {
  if (names.primary === names.side || !(names.primary in query)) return query;
  const { [names.primary]: size, ...rest } = query;
  return { ...rest, [names.side]: size! };
}

function ask(side: DiffSide, request: PlannedRequest, sizeNames: { primary: string; side: string }): Promise<Exchange> {
  const keys: Record<PlannedRequest['key'], string | null | undefined> = {
    full: undefined,
    restricted: side.config.restrictedApiKey,
    none: null,
    unknown: UNKNOWN_KEY,
    extended: EXTENDED_KEY,
  };
  const options: RequestOptions = {
    apiKey: keys[request.key],
    ...(request.apiKeyHeader !== undefined && { apiKeyHeader: request.apiKeyHeader }),
    ...(request.onBehalfOf !== undefined && { onBehalfOf: request.onBehalfOf }),
  };
  if (request.mark !== undefined) {
    // Planned only where every side names its fixture (writesAllowed).
    const { guid, body, onBehalfOf } = markRequestOf(request.mark, side.config.unread!);
    return side.api.markGroupConversationAsUnread(guid, body, { ...options, ...(onBehalfOf !== undefined && { onBehalfOf }) });
  }
  return request.operation === 'listCalls'
    ? side.api.listCalls(querySideNames(request.query ?? {}, sizeNames), options)
    : side.api.getCall(request.sessionId!, options);
}

/** Without ALLOW_WRITES=true the diff reads only: mark-unread is named as not compared, and why. */
const READ_ONLY = [{ operation: 'markGroupConversationAsUnread' as const, reason: 'not compared: read-only (ALLOW_WRITES is not true)' }];

/** A small seeded generator (mulberry32): the same seed asks the sides in the same orders. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

type Ask = 'primary' | 'again' | 'candidate';

function shuffled(random: () => number): Ask[] {
  const asks: Ask[] = ['primary', 'again', 'candidate'];
  for (let index = asks.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [asks[index], asks[other]] = [asks[other]!, asks[index]!];
  }
  return asks;
}

interface Sides {
  primary: DiffSide;
  candidate: DiffSide;
  /** A second trusted copy of the primary, asked in the A/A pass when given (SECONDARY_*). */
  secondary?: DiffSide | undefined;
  /** The page size's name as each side was learned to read it. */
  sizeNames: { primary: string; candidate: string };
}

async function compareOne(sides: Sides, request: PlannedRequest, order: Ask[]): Promise<Comparison> {
  const answers: Partial<Record<Ask, Exchange>> = {};
  const { primary, candidate } = sides.sizeNames;
  for (const which of order)
    answers[which] =
      which === 'candidate'
        ? await ask(sides.candidate, request, { primary, side: candidate })
        : await ask(which === 'again' ? (sides.secondary ?? sides.primary) : sides.primary, request, { primary, side: primary });
  return { request, primary: answers.primary!, again: answers.again!, candidate: answers.candidate! };
}

/**
 * Learns both sides, draws the plan and asks it; a side that cannot be reached throws (the run is
 * inconclusive). Where writes are allowed on every side, the write plan holds at least `minComparisons`
 * requests (DIFF_MIN_COMPARISONS), so that mark-unread can be judged.
 */
export async function askBothSides(
  sides: { primary: DiffSide; candidate: DiffSide; secondary?: DiffSide | undefined },
  seed: number,
  runs: number,
  minComparisons: number,
): Promise<DiffAsked> {
  const [primary, candidate] = await Promise.all([learnSide(sides.primary, seed), learnSide(sides.candidate, seed)]);
  const every = [sides.primary, sides.candidate, ...(sides.secondary ? [sides.secondary] : [])];
  const restricted = every.every((side) => side.config.restrictedApiKey !== undefined);
  const writes = writesAllowed(every.map((side) => side.config));
  const plan = [
    ...readPlan(primary.learned, seed, runs, restricted, [candidate.learned], sides.primary.config.maxAnswerAgeSeconds),
    ...(writes ? writePlan(seed, restricted, minComparisons) : []),
  ];
  const random = seededRandom(seed);
  const orders = plan.map(() => shuffled(random));
  const sizeNames = { primary: primary.learned.paging.sizeName, candidate: candidate.learned.paging.sizeName };
  const comparisons: Comparison[] = [];
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const index = next++;
      comparisons[index] = await compareOne({ ...sides, sizeNames }, plan[index]!, orders[index]!);
    }
  };
  await Promise.all(Array.from({ length: REQUESTS_AT_ONCE }, worker));
  return { primary, candidate, plan, comparisons, notCompared: writes ? [] : READ_ONLY };
}
