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

export interface LearnedViolations {
  /** By the filter whose requirement they break. */
  byFilter: Map<FilterName, Violation[]>;
  /** The probes each filter's detection sent, and how many of them ruled a reading out. */
  probes: Map<FilterName, { sent: number; ruling: number }>;
}

/** Every filter no reading of which fits what the side's learning saw. */
export function learnedViolations(side: LearnedSide): LearnedViolations {
  const found: LearnedViolations = { byFilter: new Map(), probes: new Map() };
  for (const detection of side.learned.detections) {
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

/** The violations of the filters `filters` names, as the side's learning showed them. */
export function learnedFor(found: LearnedViolations, filters: object | undefined): Violation[] {
  if (filters === undefined) return [];
  return [...found.byFilter].flatMap(([name, violations]) => (name in filters ? violations : []));
}
