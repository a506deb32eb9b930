// The comparisons counted, field path by field path, and judged against the noise (Diffy's rule): a
// path is reported only where the candidate differs from the primary more often than the primary
// differs from itself (the A/A pass), by the relative and the absolute thresholds both. Declared
// noise (DIFF_IGNORE) is taken out first, each rule counting what it suppressed; a call one side lists
// and the other not is movement only where its times say it could have moved between the asks:
// where it had not settled by the target's own clock, as the settling rules decide.
import { shiftedAcrossEdges } from './page-shift.ts';
import type { KeptOrder } from './list-order.ts';
import { answerDifferences, type AnswerDifference, type DifferenceClass } from './answer-differences.ts';
import type { DiffOperation, DiffSettings, IgnoreRule } from './diff-settings.ts';
import type { PlannedRequest } from './read-plan.ts';
import type { Exchange } from '../transport/exchange.ts';
import { settledBy, targetClock } from '../checks/settling.ts';
import { callsIn } from '../checks/calls-in.ts';
import { totalWithinGrowth, type TotalSeen } from '../checks/total-falls.ts';
import { growthSeen, totalSeen, unfiltered } from './growing-list.ts';

/** One planned request as asked: the primary twice (the A/A pass), the candidate once, in `order`. */
export interface Comparison {
  request: PlannedRequest;
  primary: Exchange;
  again: Exchange;
  candidate: Exchange;
}

interface KindCounts {
  candidate: number;
  aa: number;
  comparisons: number;
  /** The primary, asked twice, showed nothing moving in any request of this kind (no call arrived, left or changed between its asks). */
  still: boolean;
}

export interface PathTally {
  operation: DiffOperation;
  path: string;
  kind: DifferenceClass;
  /** Comparisons where the candidate differed from the primary here. */
  candidate: number;
  /** Comparisons where the primary differed from itself here. */
  aa: number;
  /** A few of the candidate's differences, with their comparison. */
  samples: Array<{ comparison: Comparison; difference: AnswerDifference }>;
  /**
   * Every comparison where the candidate differed here: the classing judges them all (classing.ts),
   * the samples being only what a report shows. References to answers already held, no copies.
   */
  differing: Comparison[];
  /**
   * The same counts within each kind of request of the plan (read-plan.ts's `kind`: the auth cases,
   * the unknown ids, the pages …), each with its comparisons: a difference in one kind of request is
   * judged against the noise of that kind too, not diluted by every other request of the operation.
   */
  kinds: Record<string, KindCounts>;
}

interface OperationTally {
  operation: DiffOperation;
  comparisons: number;
  /** Comparisons where the primary's two answers differed at all. */
  aaDiffering: number;
  /** Calls listed by one side only whose times say they moved between the asks. */
  movement: number;
}

export interface DiffTally {
  operations: OperationTally[];
  paths: PathTally[];
  ignored: Array<IgnoreRule & { suppressed: number }>;
}

const SAMPLES_KEPT = 3;

export interface MovementRules {
  /** SETTLE_SECONDS: how long after its last moment a call may still change (settling.ts). */
  settleSeconds: number;
  /**
   * MAX_ANSWER_AGE: how much older than its arrival an answer may be. A call is compared in full only
   * where it had settled that long before the clock: an answer from a cache or a replica shows the
   * store as it was then, before a late field arrived. Absent: 0, answers as fresh as their arrival.
   */
  answerAgeSeconds?: number | undefined;
  /**
   * The target's clock before the comparisons began (what learning saw: settling.ts's targetClock), a
   * lower bound of its now at every comparison; each pair of answers may show a later one.
   */
  clock?: number | undefined;
}

/** The counts of a list that change as calls arrive or change state. */
const MOVING_COUNTS: ReadonlySet<string> = new Set(['meta.pagination.total', 'meta.pagination.total_pages', 'meta.pagination.count']);

/** Whether a call had settled as an answer within the age allowed may show it, by the pair's clock (settling.ts). */
function stillRule(answers: readonly Exchange[], rules: MovementRules) {
  const shown = targetClock(answers);
  const clock = shown === undefined || rules.clock === undefined ? (shown ?? rules.clock) : Math.max(shown, rules.clock);
  const asOld = clock === undefined ? undefined : clock - (rules.answerAgeSeconds ?? 0);
  return (call: Record<string, unknown>) => settledBy(call, asOld, rules.settleSeconds);
}

/**
 * Whether two answers of the unfiltered list may name different totals for the list grew between
 * them: each total within what the primary's other answers of the list bound it to (growing-list.ts).
 */
function grewBetween(answers: readonly Exchange[], growth: readonly TotalSeen[], rules: MovementRules): boolean {
  const ageMs = (rules.answerAgeSeconds ?? 0) * 1000;
  return answers.every((answer) => {
    const seen = unfiltered(answer) ? totalSeen(answer) : undefined;
    return seen !== undefined && totalWithinGrowth(growth, seen, ageMs);
  });
}

interface PairContext {
  order: KeptOrder | undefined;
  rules: MovementRules;
  /** The primary's answers of the unfiltered list, with their times: how it grew over the run. */
  growth: readonly TotalSeen[];
}

/**
 * Two answers compared on what cannot have moved between them (settling.ts): a call that had not
 * settled by the target's clock as the two answers show it may have arrived, ended, entered or left a
 * filter or a page between the asks, so it is compared on nothing, and one side listing it and the
 * other not is movement, as is a different count of calls beside it, or on the unfiltered list one
 * its growth allows. A call settled by then is compared in full; one side listing it and the other
 * not is movement only where the counts moved and the page's window shifted across it by as many
 * calls as they moved (page-shift.ts).
 */
function differencesBeyondMovement(first: Exchange, second: Exchange, context: PairContext) {
  const isStill = stillRule([first, second], context.rules);
  let moved = 0;
  const differences: AnswerDifference[] = [];
  // A count of calls moves with the calls: where either answer shows one still moving, its totals may too.
  const moving =
    [first, second].some((answer) => callsIn(answer).some(({ call }) => !isStill(call))) ||
    grewBetween([first, second], context.growth, context.rules);
  const orderedLists = context.order !== undefined;
  for (const difference of answerDifferences(asCompared(first), asCompared(second), { orderedLists, isStill })) {
    if (moving && difference.kind === 'value' && MOVING_COUNTS.has(difference.path)) {
      moved++;
      continue;
    }
    if (difference.kind !== 'membership') {
      differences.push(difference);
      continue;
    }
    const onlyIn = difference.onlyIn ?? [];
    const settled = onlyIn.filter(({ call }) => isStill(call));
    const shifted = moving ? shiftedAcrossEdges(first, second, settled, context.order) : new Set();
    const unexplained = settled.filter(({ call }) => !shifted.has(call));
    moved += onlyIn.length - unexplained.length;
    if (unexplained.length > 0) differences.push({ ...difference, onlyIn: unexplained });
  }
  return { differences, moved };
}

/** The media type without its parameters, and whether the bytes were UTF-8. */
const formatOf = ({ response }: Exchange) =>
  `${(response.headers['content-type'] ?? '(none)').split(';')[0]!.trim().toLowerCase()}${response.notUtf8 ? ', not UTF-8' : ''}`;

/**
 * Mark-unread's result message is prose, and names each side's own fixture (its group, its member):
 * compared by its type only, as an error's message is not compared at all.
 */
function withoutProse(exchange: Exchange): unknown {
  const { body } = exchange.response;
  if (exchange.operation !== 'markGroupConversationAsUnread' || typeof body !== 'object' || body === null) return body;
  const data = (body as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null || typeof (data as { message?: unknown }).message !== 'string') return body;
  return { ...body, data: { ...data, message: '(prose)' } };
}

const asCompared = (exchange: Exchange) => ({ status: exchange.response.status, body: withoutProse(exchange), format: formatOf(exchange) });

/** Whether `rule` silences the difference at `path` of `operation`: the path itself, or a field under it. */
const silences = (rule: IgnoreRule, operation: DiffOperation, path: string) =>
  rule.operation === operation && (path === rule.path || path.startsWith(`${rule.path}.`) || path.startsWith(`${rule.path}[]`));

export function tallyComparisons(
  comparisons: readonly Comparison[],
  settings: DiffSettings,
  order: KeptOrder | undefined,
  rules: MovementRules,
): DiffTally {
  const operations = new Map<DiffOperation, OperationTally>();
  const paths = new Map<string, PathTally>();
  const ignored = settings.ignore.map((rule) => ({ ...rule, suppressed: 0 }));
  const pathTally = (operation: DiffOperation, difference: AnswerDifference) => {
    const key = `${operation} ${difference.kind} ${difference.path}`;
    if (!paths.has(key))
      paths.set(key, {
        operation,
        path: difference.path,
        kind: difference.kind,
        candidate: 0,
        aa: 0,
        samples: [],
        differing: [],
        kinds: {},
      });
    return paths.get(key)!;
  };
  const requestKinds = new Map<string, { comparisons: number; aaMoved: number }>();
  const context: PairContext = { order, rules, growth: growthSeen(comparisons.flatMap(({ primary, again }) => [primary, again])) };
  const kindTally = (entry: PathTally, comparison: Comparison) =>
    (entry.kinds[comparison.request.kind] ??= { candidate: 0, aa: 0, comparisons: 0, still: false });
  /** The differences no rule silences, each rule counting the comparisons it silenced something in. */
  const heard = (operation: DiffOperation, differences: readonly AnswerDifference[]) => {
    const silenced = new Set<number>();
    const kept = differences.filter((difference) => {
      const index = ignored.findIndex((rule) => silences(rule, operation, difference.path));
      if (index !== -1) silenced.add(index);
      return index === -1;
    });
    for (const index of silenced) ignored[index]!.suppressed++;
    return kept;
  };
  for (const comparison of comparisons) {
    const { operation } = comparison.request;
    const tally = operations.get(operation) ?? { operation, comparisons: 0, aaDiffering: 0, movement: 0 };
    operations.set(operation, tally);
    tally.comparisons++;
    const kindKey = `${operation} ${comparison.request.kind}`;
    const aa = differencesBeyondMovement(comparison.primary, comparison.again, context);
    const ofKind = requestKinds.get(kindKey) ?? { comparisons: 0, aaMoved: 0 };
    requestKinds.set(kindKey, { comparisons: ofKind.comparisons + 1, aaMoved: ofKind.aaMoved + aa.moved });
    const candidate = differencesBeyondMovement(comparison.primary, comparison.candidate, context);
    tally.movement += candidate.moved;
    const aaHeard = heard(operation, aa.differences);
    if (aaHeard.length > 0) tally.aaDiffering++;
    for (const difference of aaHeard) {
      const entry = pathTally(operation, difference);
      entry.aa++;
      kindTally(entry, comparison).aa++;
    }
    for (const difference of heard(operation, candidate.differences)) {
      const entry = pathTally(operation, difference);
      entry.candidate++;
      kindTally(entry, comparison).candidate++;
      if (entry.samples.length < SAMPLES_KEPT) entry.samples.push({ comparison, difference });
      entry.differing.push(comparison);
    }
  }
  for (const entry of paths.values())
    for (const [kind, counts] of Object.entries(entry.kinds)) {
      const ofKind = requestKinds.get(`${entry.operation} ${kind}`);
      counts.comparisons = ofKind?.comparisons ?? 0;
      counts.still = ofKind?.aaMoved === 0;
    }
  return { operations: [...operations.values()], paths: [...paths.values()], ignored };
}

const percent = (count: number, of: number) => (of === 0 ? 0 : (100 * count) / of);

/** Whether the candidate's rate beats the A/A rate by both thresholds. */
function rateBeyond(counts: { candidate: number; aa: number }, comparisons: number, settings: DiffSettings): boolean {
  const [candidate, aa] = [percent(counts.candidate, comparisons), percent(counts.aa, comparisons)];
  const { relativePercent, absolutePercent } = settings.noise;
  return candidate > 0 && candidate - aa >= absolutePercent && candidate > aa * (1 + relativePercent / 100);
}

/**
 * Differences in what kind of answer came back: its status, its error code, its body's type. Calls
 * arriving and changing move which calls an answer holds and what they show, never these.
 */
const answerKind = (path: PathTally) => path.kind === 'status' || path.kind === 'error-code' || path.path === '(body)';

/**
 * Whether the candidate's rate at this path beats the A/A rate by both thresholds, over the
 * operation's comparisons or over those of one kind of request: a refusal of the one request with an
 * unknown key, or calls a filter alone kept, are no less a difference for the many lists asked beside
 * them. Within a kind, a difference in the calls and their fields counts only where the primary,
 * asked twice, showed nothing moving in that kind (a living target's lists shift calls between pages
 * as calls arrive, which the whole operation's rate allows for and one kind's few requests would not).
 */
export function beyondNoise(path: PathTally, comparisons: number, settings: DiffSettings): boolean {
  const judged = Object.values(path.kinds).filter((counts) => answerKind(path) || counts.still);
  return rateBeyond(path, comparisons, settings) || judged.some((counts) => rateBeyond(counts, counts.comparisons, settings));
}

/** The operations that cannot be judged, each with why: too few comparisons, or the primary too noisy against itself. */
export function inconclusiveOperations(tally: DiffTally, settings: DiffSettings): Array<{ operation: DiffOperation; reason: string }> {
  return tally.operations.flatMap(({ operation, comparisons, aaDiffering }) => {
    if (comparisons < settings.minComparisons)
      return [{ operation, reason: `${comparisons} comparisons, fewer than DIFF_MIN_COMPARISONS=${settings.minComparisons}` }];
    const noise = percent(aaDiffering, comparisons);
    if (noise >= settings.noise.inconclusivePercent)
      return [
        {
          operation,
          reason: `the primary differed from itself in ${noise.toFixed(0)}% of comparisons, at or above DIFF_NOISE_INCONCLUSIVE=${settings.noise.inconclusivePercent}%`,
        },
      ];
    return [];
  });
}
