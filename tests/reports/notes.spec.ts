// A requirement id reaches the reports as data (core/results/annotations.ts): the verdict's notes carry
// it in their annotation type and their text alone in the description, and the reporter reads the
// type back among those the catalog's ids make, never cutting the description apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type TestInfo } from '@playwright/test';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { loadCatalog } from '../../openapi/catalog.ts';
import { notesOf, requirementAnnotation } from '../../core/results/annotations.ts';
import type { RequirementResult } from '../../core/results/report-model.ts';
import { Verdict } from '../../core/run/verdict.ts';
import { skipBlocked } from '../../core/results/blocked.ts';
import { reporterRun } from './reporter-run.ts';
import { metadata } from './report-records.ts';

const catalog = loadCatalog();

test('notes are read back by their type alone: a type no catalogued requirement makes is no note, and a description with spaces stays whole', () => {
  const annotations = [
    requirementAnnotation('CALLS-LIST-OK'),
    { type: 'observation:CALLS-GET-ENVELOPE', description: 'CALLS-LIST-OK is not the id here' },
    { type: 'observation:NO-SUCH-REQUIREMENT', description: 'an id no catalog declares' },
    { type: 'observation', description: 'CALLS-GET-ENVELOPE the old form, id first' },
    { type: 'warning:CALLS-GET-ENVELOPE', description: 'a warning' },
    { type: 'observation:RATE-LIMITS' },
  ];
  expect(notesOf(annotations, 'observation', catalog.byId.keys())).toEqual([
    { requirement: 'CALLS-GET-ENVELOPE', text: 'CALLS-LIST-OK is not the id here' },
    { requirement: 'RATE-LIMITS', text: '' },
  ]);
});

/** A test as Playwright hands it to the reporter; only what the reporter reads. */
function ended(
  id: string,
  status: TestResult['status'],
  info: { title: string; annotations: TestInfo['annotations'] },
): [TestCase, TestResult] {
  const testCase = { id, title: info.title, location: { file: `suite/${id}.spec.ts`, line: 1, column: 1 }, annotations: [] };
  const result = { retry: 0, status, duration: 1, errors: [], attachments: [], annotations: info.annotations };
  return [testCase as unknown as TestCase, result as unknown as TestResult];
}

test('what the verdict and a blocked test note reach results.json under the requirement they name, whatever the title says', async () => {
  const info = { title: 'A title whose first word is no id', annotations: [requirementAnnotation('CALLS-GET-ENVELOPE')] };
  const verdict = new Verdict(info as unknown as TestInfo, catalog, 'spec');
  verdict.observe('CALLS-GET-ENVELOPE', 'the call came wrapped in data');
  verdict.observe('RATE-LIMITS', 'RATE-LIMITS-LIKE words first, then more');
  const blockedInfo = { title: 'Another title', annotations: [requirementAnnotation('CALLS-GET-OK')], skip: () => undefined };
  expect(() => skipBlocked(blockedInfo as unknown as TestInfo, 'PAGINATION-ENVELOPE', 'no envelope, no meta')).toThrow('unreachable');

  const dir = await reporterRun('notes', metadata, [ended('noted', 'passed', info), ended('blocked', 'skipped', blockedInfo)]);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { requirements: RequirementResult[] };
  const observed = (id: string) => results.requirements.find((requirement) => requirement.id === id)?.observations;
  expect(observed('CALLS-GET-ENVELOPE')).toEqual(['the call came wrapped in data']);
  expect(observed('RATE-LIMITS')).toEqual(['RATE-LIMITS-LIKE words first, then more']);
  expect(results.requirements.find((requirement) => requirement.id === 'CALLS-GET-OK')).toMatchObject({
    status: 'blocked',
    blockedBy: ['PAGINATION-ENVELOPE'],
  });
});
