// The readings the catalog declares are the ones the suite learns: the same subjects, each with the
// candidates its detection chooses between; every requirement whose checks judge under a reading
// names it; and docs/readings.md says, for each, what the suite accepts and why (generated from here).
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { READING_SUBJECTS, type ReadingSubject } from '../../core/learning/detection.ts';
import {
  COUNT_READINGS,
  MINUTES_READINGS,
  PARTICIPANTS_FILTER_READINGS,
  TIMER_READINGS,
  TOOK_PART_READINGS,
} from '../../core/checks/readings.ts';
import { DATE_READINGS } from '../../core/checks/dates.ts';
import { PAGE_SELECTIONS } from '../../core/learning/paging.ts';
import { GET_CALL_ENVELOPES } from '../../core/checks/calls-in.ts';
import { readingsSection, documentedReadings } from './readings-doc.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_ALTERNATIVES } from '../../reference/alternatives.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';

const catalog = loadCatalog();

/** What each detection chooses between, as the code has it. */
const DETECTED: Readonly<Record<ReadingSubject, readonly string[]>> = {
  'call-minutes': MINUTES_READINGS,
  'participant-count': COUNT_READINGS,
  'participants-count-filter': PARTICIPANTS_FILTER_READINGS,
  'took-part': TOOK_PART_READINGS,
  'started-at-filter': DATE_READINGS.startedAt,
  'ended-at-filter': DATE_READINGS.endedAt,
  'page-selection': PAGE_SELECTIONS,
  'get-call-envelope': GET_CALL_ENVELOPES,
  'call-timer': TIMER_READINGS,
};

/** The requirements whose checks take a reading, by what they take it from. */
const JUDGED_UNDER: Readonly<Record<ReadingSubject, readonly string[]>> = {
  'call-minutes': ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'],
  'participant-count': ['CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES'],
  'participants-count-filter': ['CALLS-LIST-FILTER-PARTICIPANTS-COUNT', 'CALLS-LIST-AND-NARROWING', 'CALLS-LIST-FILTER-COMPLETENESS'],
  'took-part': [
    'CALLS-LIST-FILTER-UID',
    'CALLS-LIST-AND-NARROWING',
    'CALLS-LIST-FILTER-COMPLETENESS',
    'CALLS-LIST-ON-BEHALF-OF',
    'CALLS-GET-ON-BEHALF-OF',
    'CALLS-GET-ON-BEHALF-OF-SCOPE',
  ],
  'started-at-filter': [
    'CALLS-LIST-FILTER-STARTED-AT',
    'CALLS-LIST-DATE-FILTER-SEMANTICS',
    'CALLS-LIST-AND-NARROWING',
    'CALLS-LIST-FILTER-COMPLETENESS',
  ],
  'ended-at-filter': [
    'CALLS-LIST-FILTER-ENDED-AT',
    'CALLS-LIST-DATE-FILTER-SEMANTICS',
    'CALLS-LIST-AND-NARROWING',
    'CALLS-LIST-FILTER-COMPLETENESS',
  ],
  'page-selection': [
    'PAGINATION-PAGES-PARTITION',
    'PAGINATION-PAGE-PARAMETERS',
    'PAGINATION-PAGE-SIZE-BOUNDS',
    'CALLS-LIST-FILTER-COMPLETENESS',
  ],
  'get-call-envelope': ['CALLS-GET-OK', 'CALLS-GET-ENVELOPE'],
  'call-timer': ['CALL-TOTAL-DURATION-IS-ITS-DURATION'],
};

test('the catalog declares each subject the suite learns, once, and nothing else', () => {
  expect(catalog.readings.map((reading) => reading.subject)).toEqual([...READING_SUBJECTS]);
});

for (const subject of READING_SUBJECTS) {
  test(`the catalog's candidates for ${subject} are the ones its detection chooses between`, () => {
    const declared = catalog.readings.find((reading) => reading.subject === subject);
    expect(declared?.candidates.map((candidate) => candidate.id)).toEqual([...DETECTED[subject]]);
  });

  test(`every requirement judged under ${subject} names it, and no other does`, () => {
    const naming = catalog.requirements
      .filter((requirement) => requirement.readings?.includes(subject))
      .map((requirement) => requirement.id);
    expect(naming.sort()).toEqual([...JUDGED_UNDER[subject]].sort());
  });
}

test('docs/readings.md says, for each reading, what the suite accepts and why, as the catalog does', () => {
  expect(
    documentedReadings(),
    'docs/readings.md lacks the readings section; write it with npx tsx tests/openapi/readings-doc.ts --write',
  ).toBe(readingsSection());
});

test('docs/readings.md and docs/configuration.md name every alternative reading the reference serves, which the kill matrix proves', () => {
  for (const doc of ['docs/readings.md', 'docs/configuration.md']) {
    const text = readFileSync(join(PROJECT_ROOT, doc), 'utf8');
    expect(
      REFERENCE_ALTERNATIVES.filter((alternative) => !text.includes(`\`${alternative}\``)),
      doc,
    ).toEqual([]);
  }
});
