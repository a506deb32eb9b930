// What a side's learning showed of its filters, judged as the suite's own filter tests judge it
// (suite/calls-list/filter-each.spec.ts): where the suite probed what a filter means (the date
// filters, who took part for uid, what participantsCount counts) and no reading the words allow fits
// the side's answers, the side fails that filter's requirement, with the answers that ruled each
// reading out. A candidate that mixes two readings, or compares a bound in another time zone, may
// show it in the probes only: the plan's drawn values need not land where the readings part.
import { FILTER_REQUIREMENTS, type FilterName } from '../checks/filters.ts';
import { PROBED_FILTERS, readingDetection } from '../learning/detection.ts';
import type { Violation } from '../checks/violation.ts';
import type { LearnedSide } from './run-diff.ts';
import type { PlannedRequest } from './read-plan.ts';

export interface LearnedViolations {
  /** By the filter whose requirement they break. */
  byFilter: Map<FilterName, Violation[]>;
  /**
   * Get Call's calls fetched while learning, in more than one envelope (no envelope survived): the
   * suite judges Get Call by the envelope most of them used, so the others fail CALLS-GET-OK.
   */
  envelope: Violation[];
  /** The probes each filter's detection sent, and how many of them ruled a reading out. */
  probes: Map<FilterName, { sent: number; ruling: number }>;
}

/** Every filter no reading of which fits what the side's learning saw. */
export function learnedViolations(side: LearnedSide): LearnedViolations {
  const found: LearnedViolations = { byFilter: new Map(), envelope: [], probes: new Map() };
  for (const detection of side.learned.detections) {
    if (detection.subject === 'get-call-envelope') found.envelope = readingDetection(detection, 'CALLS-GET-OK', "Get Call's envelope");
    const name = PROBED_FILTERS[detection.subject];
    if (name === undefined) continue;
    const violations = readingDetection(detection, FILTER_REQUIREMENTS[name], `the ${name} filter`);
    if (violations.length === 0) continue;
    found.byFilter.set(name, violations);
    const ruling = new Set(detection.ruledOut.flatMap(({ exchange }) => (exchange ? [exchange] : []))).size;
    found.probes.set(name, { sent: detection.exchanges.length, ruling });
  }
  return found;
}

/** What the side's learning showed of what `request` asks: the filters it names, Get Call's envelope. */
export function learnedFor(found: LearnedViolations, request: Pick<PlannedRequest, 'operation' | 'filters'>): Violation[] {
  const { filters } = request;
  const ofFilters = filters === undefined ? [] : [...found.byFilter].flatMap(([name, violations]) => (name in filters ? violations : []));
  return [...ofFilters, ...(request.operation === 'getCall' ? found.envelope : [])];
}
