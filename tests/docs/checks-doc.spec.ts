// docs/checks.md lists every check label the code makes, one line each (checks-doc.ts reads them
// from the sources): a label added, renamed or reworded in the code and not in the page fails here.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { CHECKS_DOC, checkLabels, checksDoc } from './checks-doc.ts';

test('docs/checks.md is what the sources say: regenerate it with npm run docs:checks', () => {
  expect(readFileSync(CHECKS_DOC, 'utf8'), 'docs/checks.md is out of step with the code: npm run docs:checks').toBe(checksDoc());
});

test("every label is found where it is made, a helper's too, each with the function or test that makes it and its failure line", () => {
  const labels = checkLabels();
  const byLabel = new Map(labels.map((entry) => [entry.label, entry]));
  expect(labels.length).toBeGreaterThan(40);
  for (const entry of labels) expect(entry.label, entry.file).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
  // A label named where a helper is called (timestamps.ts's notBefore) and one a test makes in its body.
  expect(byLabel.get('ended_not_before_started')).toMatchObject({
    producer: 'endedNotBeforeStarted',
    requirement: 'CALL-ENDED-NOT-BEFORE-STARTED',
  });
  expect(byLabel.get('pages_partition')?.file).toBe('suite/calls-list/pagination.spec.ts');
  expect(byLabel.get('filter_narrowing')?.title).toBe('call … was returned for … but does not match …');
});
