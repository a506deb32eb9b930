// Whether startedAt and endedAt match exactly or act as bounds is not shown, nor which of a call's
// times the startedAt filter compares (its startedAt, or its initiatedAt: startedAt is also
// described as when the call was initiated). The suite finds out: for a few sampled calls it asks
// for the call's own timestamp, one before and one after it, pinned to a participant who joined that
// call and to the call's kind so the answer is small (and for the pins alone, to see that a date
// narrows them). For the
// startedAt filter the calls are drawn from those that rang before they started (initiatedAt two
// seconds or more before startedAt) where there are any, and also asked for at their initiatedAt and
// at a time strictly between the two: only there do the two fields answer differently. A reading is
// ruled out when an answer holds a call it would exclude, or, in a complete answer, lacks the
// sampled call it would include. What survives is what the target is consistent with; a filter that
// selects by no meaning at all (ignored, or off) is judged by its own requirement, never skipped. An
// answer that ignores the pin (filters not combined with AND) says nothing of the date filter, and
// is not used: that is CALLS-LIST-AND-NARROWING's to judge, not this filter's.
import fc from 'fast-check';
import { callsIn, participantsOf, type CallObject, type SeenCall } from '../checks/calls-in.ts';
import { TOOK_PART_READINGS, tookPartUnderAny } from '../checks/readings.ts';
import { DATE_READINGS, dateReadingMatches, readingParts, type DateField, type DateReading } from '../checks/dates.ts';
import { filterQuery, type Filters } from '../checks/filters.ts';
import { pageOf } from '../checks/pagination.ts';
import { shown } from '../checks/violation.ts';
import { TERMINAL_STATUSES } from '../checks/settling.ts';
import { isWhole } from '../checks/narrowing.ts';
import { openDetection, ruleOut, type Detection } from './detection.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { ListingApi } from './listing-api.ts';

export type DateDetection = Detection<DateReading> & { field: DateField };

const PROBE_CALLS = 4;

/** Every pin holds for the call: the answer was narrowed by it. */
function matchesPins(call: CallObject, pins: Filters): boolean {
  return (
    (pins.uid === undefined || tookPartUnderAny(call, pins.uid, TOOK_PART_READINGS)) &&
    (['type', 'mode', 'status', 'receiverType'] as const).every((name) => pins[name] === undefined || call[name] === pins[name])
  );
}

export async function detectDateSemantics(
  api: ListingApi,
  calls: readonly SeenCall[],
  field: DateField,
  seed: number,
): Promise<DateDetection> {
  const withField = calls.filter(({ call }) => Number.isInteger(call[field]));
  const detection: DateDetection = {
    ...openDetection(field === 'startedAt' ? 'started-at-filter' : 'ended-at-filter', DATE_READINGS[field]),
    field,
  };
  if (withField.length === 0) return { ...detection, evidence: `no sampled call carries ${field}` };
  const rang = field === 'startedAt' ? withField.filter(({ call }) => ringSeconds(call) >= 2) : [];
  const drawn = rang.length > 0 ? rang : withField;

  const probes = drawProbes(drawn, field, Math.min(PROBE_CALLS, withField.length), seed ^ (field === 'startedAt' ? 0x51 : 0x5e));
  // Every probe is known before any answer: they wait on the target together. The answers are
  // judged afterwards in the probes' order, so the evidence reads the same on every run.
  const answered = await Promise.all(probes.map((probe) => askProbe(api, probe, field)));
  let unused = 0;
  for (const { seen, answers, exchanges } of answered) {
    detection.exchanges.push(...exchanges);
    if (answers.some((answer) => answer === undefined)) unused += answers.length;
    else for (const answer of answers) judge(detection, seen, answer!);
  }
  detection.accepted = [...detection.survivors];
  const told =
    field !== 'startedAt'
      ? ''
      : rang.length > 0
        ? ' that rang before they started, so that startedAt and initiatedAt are told apart'
        : ' (no sampled call rang before it started, so startedAt and initiatedAt are not told apart)';
  detection.evidence = `${detection.exchanges.length} probes around ${probes.length} sampled calls${told}${unused > 0 ? `, ${unused} of whose answers could not be used (not narrowed by the pin)` : ''}`;
  return detection;
}

interface Probe {
  seen: SeenCall;
  offset: number;
  between: number;
}

/**
 * The calls to probe around, distinct while there are enough (four calls say more than one asked
 * four times), with the offsets to probe at. For startedAt, one call of each kind in turn (type and
 * receiver type, in a drawn order): a target may compare another field on some kinds of call (kept
 * by another service, say), and only a probe around a call of that kind shows it. endedAt has one
 * field to compare, and its calls are drawn from all alike.
 */
function drawProbes(calls: readonly SeenCall[], field: DateField, count: number, seed: number): Probe[] {
  const kinds = field === 'startedAt' ? kindsOf(calls) : [[...calls]];
  const [drawing] = fc.sample(
    fc.record({
      order: fc.shuffledSubarray(
        kinds.map((_, index) => index),
        { minLength: kinds.length, maxLength: kinds.length },
      ),
      shuffled: fc.tuple(...kinds.map((kind) => fc.shuffledSubarray(kind, { minLength: kind.length, maxLength: kind.length }))),
      times: fc.array(fc.record({ offset: fc.integer({ min: 1, max: 86_400 }), between: fc.double({ min: 0, max: 1, noNaN: true }) }), {
        minLength: count,
        maxLength: count,
      }),
    }),
    { seed, numRuns: 1 },
  );
  const { order, shuffled, times } = drawing!;
  return times.map((time, index) => {
    const kind = shuffled[order[index % kinds.length]!]!;
    return { seen: kind[Math.floor(index / kinds.length) % kind.length]!, ...time };
  });
}

/** The calls grouped by type and receiver type, the groups in a stable order. */
function kindsOf(calls: readonly SeenCall[]): SeenCall[][] {
  const byKind = new Map<string, SeenCall[]>();
  for (const seen of calls) {
    const kind = `${String(seen.call.type)}/${String(seen.call.receiverType)}`;
    byKind.set(kind, [...(byKind.get(kind) ?? []), seen]);
  }
  return [...byKind].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, group]) => group);
}

/** Seconds from initiatedAt to startedAt: a call that rang before it started has some. */
function ringSeconds(call: CallObject): number {
  return typeof call.initiatedAt === 'number' && typeof call.startedAt === 'number' ? call.startedAt - call.initiatedAt : 0;
}

/**
 * The times a call is asked for: its own, and `offset` seconds before and after it; for the startedAt
 * filter on a call that rang, also its initiatedAt and a whole second strictly between the two, where
 * a comparison on startedAt and the same on initiatedAt disagree. (The time before is taken from the
 * earlier of the two, so that it is before both.)
 */
function probeTimes(call: CallObject, field: DateField, offset: number, between: number): number[] {
  const own = call[field] as number;
  if (field !== 'startedAt' || ringSeconds(call) < 2) return [own, own - offset, own + offset];
  const initiated = call.initiatedAt as number;
  const inside = initiated + 1 + Math.min(ringSeconds(call) - 2, Math.floor(between * (ringSeconds(call) - 1)));
  return [own, initiated - offset, own + offset, initiated, inside];
}

/**
 * The pins of a probe, tightest first. A uid who joined took part under every reading of "took
 * part"; with it, the call's own kind (type, mode, receiver type, and its status where final: a
 * status that can still change could take the call out of a later answer). Pinned to a user alone,
 * a busy user's answer runs to hundreds of calls: a page of it holds neither the sampled call nor
 * the calls beside it, and says nothing of a reading. The uid alone is asked only where the kind's
 * pins left an answer unusable. Without a joined uid, the call's own type, status and receiver type
 * keep the answer small instead.
 */
function pinSets(seen: SeenCall): Filters[] {
  const { call } = seen;
  const participant = participantsOf(call).find((entry) => typeof entry.uid === 'string' && entry.isJoined === true);
  if (!participant) return [{ type: call.type as string, status: call.status as string, receiverType: call.receiverType as string }];
  const uid = participant.uid as string;
  const kind: Filters = {
    ...(typeof call.type === 'string' && { type: call.type }),
    ...(typeof call.mode === 'string' && { mode: call.mode }),
    ...(typeof call.receiverType === 'string' && { receiverType: call.receiverType }),
    ...(TERMINAL_STATUSES.has(String(call.status)) && { status: call.status as string }),
  };
  return [{ uid, ...kind }, { uid }];
}

/**
 * One probe's answers under the tightest pins that left every one usable (or the last pins tried),
 * and every request it sent. The pins alone first: a date added to them can only narrow their
 * answer, on a target that combines its filters with AND. A target that answers more for one of a
 * call's probes has not, and none of that call's answers says anything of the date filter (a date no
 * call has, OR-combined with the pins, answers just the pins, as if the date were ignored).
 */
async function askProbe(
  api: ListingApi,
  { seen, offset, between }: Probe,
  field: DateField,
): Promise<{ seen: SeenCall; answers: Array<DateAnswer | undefined>; exchanges: Exchange[] }> {
  const times = probeTimes(seen.call, field, offset, between);
  const exchanges: Exchange[] = [];
  let answers: Array<DateAnswer | undefined> = [];
  for (const pins of pinSets(seen)) {
    const [pinned, ...dated] = await Promise.all([
      api.listCalls(filterQuery(pins)),
      ...times.map((at) => api.listCalls({ ...filterQuery(pins), [field]: at })),
    ]);
    exchanges.push(pinned, ...dated);
    // Pins that leave out the call they were taken from (another filter broken) say nothing of dates:
    // a date's answer would lack it for their sake. So the pins alone must show it, or not show all.
    const selected = !isWhole(pinned) || callsIn(pinned).some(({ call }) => call.sessionId === seen.call.sessionId);
    answers = dated.map((exchange, index) =>
      selected ? usableAnswer(exchange, pins, pageOf(pinned)?.pagination.total, times[index]!) : undefined,
    );
    if (answers.every((answer) => answer !== undefined)) break;
  }
  return { seen, answers, exchanges };
}

interface DateAnswer {
  at: number;
  exchange: Exchange;
  returned: SeenCall[];
  complete: boolean;
}

/** One probe's answer, or undefined when the pin did not narrow it (larger than the pin's own, or with calls outside it). */
function usableAnswer(exchange: Exchange, pins: Filters, pinTotal: number | undefined, at: number): DateAnswer | undefined {
  const page = pageOf(exchange);
  if (!page || pinTotal === undefined || page.pagination.total > pinTotal) return undefined;
  const returned = callsIn(exchange);
  if (!returned.every(({ call }) => matchesPins(call, pins))) return undefined;
  return { at, exchange, returned, complete: page.pagination.total <= returned.length };
}

/** Rules out each reading the answer contradicts: a call it would exclude returned, or the sampled call it would include missing from a complete answer. */
function judge(detection: DateDetection, seen: SeenCall, { at, exchange, returned, complete }: DateAnswer): void {
  const { field } = detection;
  const found = returned.some(({ call }) => call.sessionId === seen.call.sessionId);
  for (const reading of [...detection.survivors]) {
    const compared = readingParts(field, reading).field;
    const stray = returned.find(({ call }) => !dateReadingMatches(call, field, at, reading));
    const missing = complete && !found && dateReadingMatches(seen.call, field, at, reading);
    if (!stray && !missing) continue;
    const reason = stray
      ? `${field}=${at} returned call ${shown(stray.call.sessionId)} whose ${compared} is ${shown(stray.call[compared])}`
      : `${field}=${at} did not return call ${shown(seen.call.sessionId)} whose ${compared} is ${shown(seen.call[compared])}`;
    ruleOut(detection, reading, reason, exchange);
  }
}
