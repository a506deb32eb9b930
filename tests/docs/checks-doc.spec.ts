// docs/checks.md lists every check label the code makes, one line each (checks-doc.ts reads them
// from the sources): a label added, renamed or reworded in the code and not in the page fails here.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { CHECKS_DOC, camelCase, checkLabels, checksDoc, type CheckLabel } from './checks-doc.ts';

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

/** The labels whose maker is not named for them, each with the reason: the only ones allowed. */
const NOT_NAMED_FOR_THE_LABEL: Readonly<Record<string, string>> = {
  get_call_envelope:
    "made in the body of its test (suite/calls-get/not-shown.spec.ts): getCallEnvelope, its name, is calls-in.ts's finder of the call in a Get Call body, used across the core",
  response_schema_conformance:
    'made in the helpers that responseSchemaConformance, the function of its name, calls: described (for each schema violation) and tooDeep',
};

/** The labels whose maker is not the camelCase of the label, and not listed with a reason. */
const misnamed = (labels: readonly CheckLabel[], allowed: Readonly<Record<string, string>>): string[] =>
  labels
    .filter((entry) => entry.producer !== camelCase(entry.label) && !(entry.label in allowed))
    .map((entry) => `${entry.label} is made by ${entry.producer} (${entry.file}), not ${camelCase(entry.label)}`);

test('every label is made by the function named as the label in camelCase, but for the exceptions listed with their reason', () => {
  const labels = checkLabels();
  expect(misnamed(labels, NOT_NAMED_FOR_THE_LABEL), 'name the function after its label, or list it with the reason').toEqual([]);
  // An exception that no longer applies is taken off the list.
  for (const label of Object.keys(NOT_NAMED_FOR_THE_LABEL))
    expect(
      labels.find((entry) => entry.label === label)?.producer,
      `${label} is now made by its namesake: drop it from the exceptions`,
    ).not.toBe(camelCase(label));
  expect(camelCase('participants_at_most_50')).toBe('participantsAtMost50');
  expect(
    misnamed(
      [{ label: 'error_code', producer: 'carriesErrorCode', file: 'core/checks/errors.ts', requirement: '', summary: '', title: '' }],
      {},
    ),
  ).toEqual(['error_code is made by carriesErrorCode (core/checks/errors.ts), not errorCode']);
});
