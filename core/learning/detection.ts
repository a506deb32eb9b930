// What the suite learns of a target has one shape, whatever it learns: the candidates (the
// readings the specification's words allow, or the ways a target may answer what they leave open),
// the evidence it looked at, what each piece of evidence ruled out, and what survived. The checks
// judge by what is accepted; the reports render every detection the same way.
import type { Exchange } from '../transport/exchange.ts';
import type { Violation } from '../checks/violation.ts';
import type { FilterName } from '../checks/filters.ts';

/** The subjects the suite learns, each declared with its candidates in openapi/requirements.yaml (readings). */
export const READING_SUBJECTS = [
  'call-minutes',
  'participant-count',
  'participants-count-filter',
  'took-part',
  'started-at-filter',
  'ended-at-filter',
  'page-selection',
  'get-call-envelope',
  'call-timer',
] as const;
export type ReadingSubject = (typeof READING_SUBJECTS)[number];

interface RuledOut<C extends string> {
  candidate: C;
  /** One line: the first thing seen that this candidate cannot explain. */
  reason: string;
  exchange?: Exchange;
}

export interface Detection<C extends string = string> {
  subject: ReadingSubject;
  candidates: readonly C[];
  /** The candidates consistent with everything seen. */
  survivors: C[];
  /**
   * What the checks judge by: the survivors, or, where a detection says so, its fallback when none
   * survived (the reading most of the target's calls follow, so that the calls that follow another
   * are the ones that fail).
   */
  accepted: C[];
  ruledOut: Array<RuledOut<C>>;
  /** What was looked at, in a phrase: "9 probes", "214 calls, 38 of which tell the readings apart". */
  evidence: string;
  /** The requests sent to learn it (none for what is read off the sampled calls). */
  exchanges: Exchange[];
}

/** A detection before any evidence: every candidate survives. */
export function openDetection<C extends string>(subject: ReadingSubject, candidates: readonly C[]): Detection<C> {
  return {
    subject,
    candidates,
    survivors: [...candidates],
    accepted: [...candidates],
    ruledOut: [],
    evidence: 'nothing seen',
    exchanges: [],
  };
}

/** Rules a candidate out, keeping the first reason given for it. */
export function ruleOut<C extends string>(detection: Detection<C>, candidate: C, reason: string, exchange?: Exchange): void {
  if (!detection.survivors.includes(candidate)) return;
  detection.survivors = detection.survivors.filter((survivor) => survivor !== candidate);
  detection.ruledOut.push({ candidate, reason, ...(exchange && { exchange }) });
}

/** The annotation that carries a detection's summary, as JSON, from a test to the reports. */
export const READING_ANNOTATION = 'reading';

/** A detection as the reports carry it: no exchanges, only what a reader needs. */
export interface DetectionSummary {
  subject: ReadingSubject;
  candidates: string[];
  survivors: string[];
  accepted: string[];
  ruledOut: Array<{ candidate: string; reason: string }>;
  evidence: string;
}

export function summarize(detection: Detection): DetectionSummary {
  return {
    subject: detection.subject,
    candidates: [...detection.candidates],
    survivors: [...detection.survivors],
    accepted: [...detection.accepted],
    ruledOut: detection.ruledOut.map(({ candidate, reason }) => ({ candidate, reason })),
    evidence: detection.evidence,
  };
}

/**
 * The detections that probe what a filter means, by the filter they are about: a target consistent
 * with no reading of one fails that filter's requirement (readingDetection).
 */
export const PROBED_FILTERS: Partial<Record<ReadingSubject, FilterName>> = {
  'started-at-filter': 'startedAt',
  'ended-at-filter': 'endedAt',
  'took-part': 'uid',
  'participants-count-filter': 'participantsCount',
};

/**
 * A target consistent with no candidate fails the requirement that rests on the detection: one
 * violation per candidate, each with the answer that ruled it out. None while a candidate survives.
 */
export function readingDetection(detection: Detection, requirement: string, what: string): Violation[] {
  if (detection.survivors.length > 0) return [];
  return detection.ruledOut.map(({ candidate, reason, exchange }) => ({
    check: 'reading_detection',
    requirement,
    title: `${what} is not ${candidate}: ${reason}`,
    expected: `${what} consistent with one reading (${detection.candidates.join(', ')})`,
    received: reason,
    ...(exchange && { exchange }),
  }));
}
