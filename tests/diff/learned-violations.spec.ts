// A side's learning judged as the suite's filter tests judge it: a probed filter no reading of which
// fits the side's answers breaks that filter's requirement; one reading left, or a filter not probed,
// breaks nothing.
import { test, expect } from '@playwright/test';
import { learnedFor, learnedViolations } from '../../core/diff/learned-violations.ts';
import type { LearnedSide } from '../../core/diff/run-diff.ts';
import type { Detection } from '../../core/learning/detection.ts';

const detection = (subject: Detection['subject'], survivors: string[]): Detection => ({
  subject,
  candidates: ['at-or-before', 'before', 'exact'],
  survivors,
  accepted: survivors,
  ruledOut: ['at-or-before', 'before', 'exact']
    .filter((candidate) => !survivors.includes(candidate))
    .map((candidate) => ({ candidate, reason: `endedAt=100 returned a call that ended at 3000, not ${candidate}` })),
  evidence: '3 probes',
  exchanges: [],
});
const side = (...detections: Detection[]) => ({ learned: { detections } }) as unknown as LearnedSide;

test('a probed filter no reading of which fits breaks its requirement, on the requests that use it', () => {
  const found = learnedViolations(side(detection('ended-at-filter', [])));
  expect([...found.byFilter.keys()]).toEqual(['endedAt']);
  expect(
    learnedFor(found, { operation: 'listCalls', filters: { endedAt: 100 } })
      .map(({ requirement }) => [...new Set([requirement])])
      .flat(),
  ).toEqual(['CALLS-LIST-FILTER-ENDED-AT', 'CALLS-LIST-FILTER-ENDED-AT', 'CALLS-LIST-FILTER-ENDED-AT']);
  expect(learnedFor(found, { operation: 'listCalls', filters: { type: 'audio' } })).toEqual([]);
  expect(learnedFor(found, { operation: 'listCalls' })).toEqual([]);
});

test('a reading left, or a detection of no filter, breaks nothing', () => {
  expect(learnedViolations(side(detection('ended-at-filter', ['before']))).byFilter.size).toBe(0);
  expect(learnedViolations(side(detection('page-selection', []))).byFilter.size).toBe(0);
});

test("Get Call's calls fetched in more than one envelope while learning break CALLS-GET-OK on every Get Call, none else", () => {
  const mixed = learnedViolations(side(detection('get-call-envelope', [])));
  expect(learnedFor(mixed, { operation: 'getCall' }).map(({ requirement }) => requirement)).toEqual([
    'CALLS-GET-OK',
    'CALLS-GET-OK',
    'CALLS-GET-OK',
  ]);
  expect(learnedFor(mixed, { operation: 'listCalls', filters: { type: 'audio' } })).toEqual([]);
  expect(learnedFor(learnedViolations(side(detection('get-call-envelope', ['data-object']))), { operation: 'getCall' })).toEqual([]);
});
