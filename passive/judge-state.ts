// What a passive report carries besides its verdict, so that the reports of several judging proxies
// (run behind one load balancer, each seeing part of the traffic) merge into the verdict one proxy
// that saw all of it would give (passive/merge-passive.ts, docs/passive-proxy.md).
//
// Summing each proxy's per-requirement counts is honest for the checks of one exchange, but not for
// the comparisons across exchanges: a call listed through one proxy and fetched through another is
// compared by neither, a key called unknown on one and accepted on another breaks AUTH-INVALID-KEY on
// neither. So the state keeps, besides the counts and the violations it cites, what those
// comparisons keep (bounded as the judge bounds them, passive/judge.ts's limits): the latest
// answer about each call from each view, the earliest answer showing each session id, the earliest
// refusal of each key (as a hash) and the latest answer to it that was not a refusal, the latest Get
// Call that called each id unknown, and the readings of the target's clock. The merge compares these
// across the proxies, in the order their recorded times say, with the same checks the judge runs.
import { DEFAULT_LIMITS, later, getCallShownId, sooner, unknownKeyAnsweredOtherwise, withWalks } from './judge.ts';
import { notJudgedOf } from './not-judged.ts';
import { STATE_FORMAT, type PassiveResult, type PassiveState, type RequirementTally } from './judge.ts';
import { getMatchesListOverTime, orderOf, surelyBefore, TargetClock, type KeptAnswer } from './over-time.ts';
import type { Violation } from '../core/checks/violation.ts';
import { emptyTally, mergeTallies } from '../core/coverage/tally.ts';
import { PASSIVE_FILES } from '../reports/report-folder.ts';

export { STATE_FORMAT };
/** The state's file, beside the reports. */
export const STATE_FILE = PASSIVE_FILES.state;

// Declared beside the judge that fills it: the judge must not import this file, which imports it.
export type { PassiveState } from './judge.ts';

/** A state that cannot be merged with the others, and why (one line). */
export class MergeError extends Error {}

/** A merge: the state it comes to, and what its report must say besides the verdict. */
export interface Merged {
  state: PassiveState;
  notes: string[];
}

type Entries<V> = Array<[string, V]>;

/** The entries of several states' maps as one, each key's value chosen by `keep(candidate, kept)`, the `limit` last kept. */
function union<V>(lists: ReadonlyArray<Entries<V>>, keep: (candidate: V, kept: V) => boolean, limit: number): Entries<V> {
  const map = new Map<string, V>();
  for (const list of lists)
    for (const [key, value] of list) {
      const kept = map.get(key);
      if (kept === undefined || keep(value, kept)) map.set(key, value);
    }
  return [...map].slice(-limit);
}

const sessionIdOf = (key: string) => key.slice(key.indexOf(' ') + 1);

export function mergeStates(states: readonly PassiveState[]): Merged {
  refuseUnmergeable(states);
  const [first] = states as [PassiveState, ...PassiveState[]];
  const tallies = summedTallies(states);
  const clock = new TargetClock(DEFAULT_LIMITS.clockReadings);
  for (const state of states) for (const [at, moment] of state.clock) clock.saw(at, moment);
  // Across two states only: what one state holds was compared within it by its own judge.
  for (let i = 0; i < states.length; i += 1)
    for (let j = 0; j < states.length; j += 1) if (i !== j) compareAcross(states[i]!, states[j]!, tallies, clock, first.settleSeconds);

  const learnedBy = states.filter((state) => state.learned !== undefined);
  const uncounted = states.filter((state) => state.coverage === undefined);
  const state: PassiveState = {
    format: STATE_FORMAT,
    ...mergedRuns(states),
    profile: first.profile,
    settleSeconds: first.settleSeconds,
    ...mergedCounts(states),
    requirements: [...tallies],
    readings: learnedBy[0]?.readings ?? first.readings,
    learned: learnedBy[0]?.learned,
    ...mergedSightings(states),
    clock: clock.readings(),
    // A state of a version that did not count coverage counts as none (the notes say so); none of them did, none is counted.
    ...(uncounted.length < states.length && {
      coverage: states.reduce((sum, one) => mergeTallies(sum, one.coverage ?? emptyTally()), emptyTally()),
    }),
  };
  return { state, notes: mergeNotes(states) };
}

/** Refuses states judged under different rules, and the traffic of one judge given twice. */
function refuseUnmergeable(states: readonly PassiveState[]): void {
  if (states.length === 0) throw new MergeError('nothing to merge');
  const [first] = states as [PassiveState, ...PassiveState[]];
  const seen = new Set<string>();
  for (const state of states) {
    if (state.profile !== first.profile)
      throw new MergeError(`the reports were judged under different profiles (${first.profile}, ${state.profile})`);
    if (state.settleSeconds !== first.settleSeconds)
      throw new MergeError(`the reports were judged with different SETTLE_SECONDS (${first.settleSeconds}, ${state.settleSeconds})`);
    for (const run of state.runs) {
      // An interim and a final report of one proxy hold the same traffic: merged, it would count twice.
      if (seen.has(run.id))
        throw new MergeError(`the traffic of one proxy (${run.sources.join(', ')}, started ${run.startedAt}) is given twice`);
      seen.add(run.id);
    }
  }
}

type Tallies = Map<string, RequirementTally>;

function tallyIn(tallies: Tallies, id: string): RequirementTally {
  let entry = tallies.get(id);
  if (!entry) tallies.set(id, (entry = { judged: 0, violations: 0, examples: [] }));
  return entry;
}

/** Violations found across states, each citing the exchanges it rests on. */
function reportIn(tallies: Tallies, violations: readonly Violation[], source: string, related: string[]): void {
  for (const violation of violations) {
    const entry = tallyIn(tallies, violation.requirement);
    entry.violations += 1;
    if (entry.judged === 0) entry.judged = 1;
    if (entry.examples.length < DEFAULT_LIMITS.examplesPerRequirement) entry.examples.push({ ...violation, source, related });
  }
}

/** Each state's counts per requirement summed, their examples kept up to the limit in the states' order. */
function summedTallies(states: readonly PassiveState[]): Tallies {
  const tallies: Tallies = new Map();
  for (const state of states)
    for (const [id, counted] of state.requirements) {
      const entry = tallyIn(tallies, id);
      entry.judged += counted.judged;
      entry.violations += counted.violations;
      entry.examples.push(...counted.examples.slice(0, DEFAULT_LIMITS.examplesPerRequirement - entry.examples.length));
    }
  return tallies;
}

/** What `mine` kept against what `theirs` kept: the comparisons across exchanges neither judge could make alone. */
function compareAcross(mine: PassiveState, theirs: PassiveState, tallies: Tallies, clock: TargetClock, settleSeconds: number): void {
  const theirFetched = new Map(theirs.fetched);
  for (const [key, listed] of mine.listed) {
    const fetched = theirFetched.get(key);
    if (fetched === undefined) continue;
    const comparison = getMatchesListOverTime(listed, fetched, clock, settleSeconds);
    if (comparison.judged) tallyIn(tallies, 'CALLS-GET-MATCHES-LIST').judged += 1;
    reportIn(tallies, comparison.violations, comparison.source, comparison.related);
  }
  const theirShown = new Map(theirs.shown);
  for (const [key, asked] of mine.notFound) {
    const shownBy = theirShown.get(key);
    if (shownBy !== undefined && surelyBefore(shownBy.span, asked.span))
      reportIn(tallies, getCallShownId(asked.exchange, sessionIdOf(key), shownBy), asked.source, [shownBy.source]);
  }
  const theirRefusals = new Map(theirs.unknownKeys);
  for (const [key, answered] of mine.keyAnswers) {
    const calledUnknown = theirRefusals.get(key);
    if (calledUnknown === undefined || !surelyBefore(calledUnknown.span, answered.span)) continue;
    tallyIn(tallies, 'AUTH-INVALID-KEY').judged += 1;
    reportIn(tallies, unknownKeyAnsweredOtherwise(answered.exchange, calledUnknown), answered.source, [calledUnknown.source]);
  }
}

/** What the merge's report must say besides the verdict: readings learned differently, coverage some states did not count. */
function mergeNotes(states: readonly PassiveState[]): string[] {
  const notes: string[] = [];
  const learnedBy = states.filter((state) => state.learned !== undefined);
  if (new Set(learnedBy.map((state) => JSON.stringify(state.learned))).size > 1)
    notes.push(
      `The proxies learned different readings from their first calls (${learnedBy.map((state) => readingsOf(state)).join('; ')}): each judged its own traffic under its own readings, where one proxy would have learned them once from the first calls of all the traffic.`,
    );
  const uncounted = states.filter((state) => state.coverage === undefined);
  if (uncounted.length > 0)
    notes.push(
      `The coverage counts the traffic of ${states.length - uncounted.length} of the ${states.length} reports only: ${uncounted.flatMap((state) => state.runs.flatMap((run) => run.sources)).join(', ')} came from a version that did not count it.`,
    );
  return notes;
}

/** The judges merged, and the time the merged traffic spans. */
function mergedRuns(states: readonly PassiveState[]): Pick<PassiveState, 'runs' | 'startedAt' | 'asOf' | 'final'> {
  return {
    runs: states.flatMap((one) => one.runs),
    startedAt: states.map((one) => one.startedAt).sort()[0]!,
    asOf: states
      .map((one) => one.asOf)
      .sort()
      .at(-1)!,
    final: states.every((one) => one.final),
  };
}

/** The states' counts of exchanges, summed. */
function mergedCounts(
  states: readonly PassiveState[],
): Pick<PassiveState, 'entries' | 'exchanges' | 'byOperation' | 'ignored' | 'bodiesAbsent' | 'redacted' | 'walks'> {
  const sum = (pick: (state: PassiveState) => Record<string, number>) => {
    const total: Record<string, number> = {};
    for (const state of states) for (const [key, count] of Object.entries(pick(state))) total[key] = (total[key] ?? 0) + count;
    return total;
  };
  return {
    entries: states.reduce((total, one) => total + one.entries, 0),
    exchanges: states.reduce((total, one) => total + one.exchanges, 0),
    byOperation: sum((one) => one.byOperation),
    ignored: sum((one) => one.ignored),
    bodiesAbsent: states.reduce((total, one) => total + one.bodiesAbsent, 0),
    redacted: [...new Set(states.flatMap((one) => one.redacted))].sort(),
    // Each judge's walks were judged within its own traffic: a walk whose pages went through two proxies is one page on each.
    walks: {
      judged: states.reduce((total, one) => total + (one.walks?.judged ?? 0), 0),
      notJudged: sum((one) => one.walks?.notJudged ?? {}),
    },
  };
}

/** What the states kept across exchanges, as one judge of all their traffic would have kept it (bounded as the judge bounds it). */
function mergedSightings(
  states: readonly PassiveState[],
): Pick<PassiveState, 'listed' | 'fetched' | 'shown' | 'unknownKeys' | 'keyAnswers' | 'notFound'> {
  const latest = (candidate: KeptAnswer, kept: KeptAnswer) => orderOf(kept.span, candidate.span) !== 'second-earlier';
  const limits = DEFAULT_LIMITS;
  return {
    listed: union(
      states.map((one) => one.listed),
      latest,
      limits.settledCalls,
    ),
    fetched: union(
      states.map((one) => one.fetched),
      latest,
      limits.settledCalls,
    ),
    shown: union(
      states.map((one) => one.shown),
      sooner,
      limits.shownSessionIds,
    ),
    unknownKeys: union(
      states.map((one) => one.unknownKeys),
      sooner,
      limits.unknownKeys,
    ),
    keyAnswers: union(
      states.map((one) => one.keyAnswers),
      later,
      limits.unknownKeys,
    ),
    notFound: union(
      states.map((one) => one.notFound),
      later,
      limits.unknownKeys,
    ),
  };
}

function readingsOf(state: PassiveState): string {
  const learned = state.learned!;
  return `${state.runs.map((run) => run.sources.join(', ')).join(' + ')}: minutes ${learned.minutes.join('|')}, participant count ${learned.participantCount.join('|')}, Get Call envelope ${learned.getCallEnvelope.join('|')}, timer ${learned.timer.join('|')}`;
}

/** The result a state stands for, as the reports take it. Its texts were scrubbed by the judges that wrote it. */
export function resultOfState(state: PassiveState): PassiveResult {
  const walks = state.walks ?? { judged: 0, notJudged: {} };
  const requirements = new Map(state.requirements.filter(([, entry]) => entry.judged > 0 || entry.violations > 0));
  return {
    entries: state.entries,
    exchanges: state.exchanges,
    byOperation: state.byOperation,
    ignored: state.ignored,
    bodiesAbsent: state.bodiesAbsent,
    requirements,
    notJudged: withWalks(notJudgedOf(requirements), walks),
    walks,
    readings: state.readings,
    redacted: state.redacted,
    redact: (text) => text,
    profile: state.profile,
    startedAt: state.startedAt,
    endedAt: state.asOf,
    coverage: mergeTallies(emptyTally(), state.coverage ?? emptyTally()),
  };
}
