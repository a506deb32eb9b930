// docs/checks.md lists every check label the code makes, one line each (checks-doc.ts reads them
// from the sources): a label added, renamed or reworded in the code and not in the page fails here.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { CHECKS_DOC, camelCase, checkLabels, checksDoc, sampleFailures, type CheckLabel } from './checks-doc.ts';
import { CHECK_SAMPLES } from './check-samples.ts';
import { sessionIdUnique } from '../../core/checks/session-ids.ts';
import { listPage } from '../checks/exchanges.ts';

test('docs/checks.md is what the sources say: regenerate it with npm run docs:checks', () => {
  expect(readFileSync(CHECKS_DOC, 'utf8'), 'docs/checks.md is out of step with the code: npm run docs:checks').toBe(checksDoc());
});

test("every label is found where it is made, a helper's too, each with the function that makes it", () => {
  const labels = checkLabels();
  const byLabel = new Map(labels.map((entry) => [entry.label, entry]));
  expect(labels.length).toBeGreaterThan(40);
  for (const entry of labels) expect(entry.label, entry.file).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
  // A label named where a helper is called (timestamps.ts's notBefore) and one a test makes in its body.
  expect(byLabel.get('ended_not_before_started')).toMatchObject({
    producer: 'endedNotBeforeStarted',
    requirement: 'CALL-ENDED-NOT-BEFORE-STARTED',
  });
  expect(byLabel.get('pages_partition')?.file).toBe('core/checks/pages-partition.ts');
  expect(byLabel.get('filter_completeness')?.producer).toBe('filterCompleteness');
});

test('every label has a sample, calling the function that makes it, that fails with that label: its line is the one the code writes', () => {
  const labels = checkLabels();
  const failures = sampleFailures(labels);
  expect([...failures.keys()].sort()).toEqual(labels.map((entry) => entry.label).sort());
  expect(failures.get('session_id_unique')?.title).toBe('one list page shows 1 sessionId more than once');
  expect(checksDoc()).toContain('| one list page shows 1 sessionId more than once |');
});

test('the page is not written when a label has no sample, its sample calls another function, fails otherwise or names no label', () => {
  const made: CheckLabel = {
    label: 'session_id_unique',
    producer: 'sessionIdUnique',
    file: 'core/checks/session-ids.ts',
    requirement: '',
    summary: '',
  };
  const failing = { check: sessionIdUnique, run: () => sessionIdUnique(listPage(['call-1', 'call-1'])) };
  expect(sampleFailures([made], { session_id_unique: failing }).get('session_id_unique')?.check).toBe('session_id_unique');
  expect(() => sampleFailures([made], {})).toThrow('session_id_unique has no sample in tests/docs/check-samples.ts');
  expect(() => sampleFailures([made], { session_id_unique: { ...failing, check: { name: 'somethingElse' } } })).toThrow(
    "session_id_unique's sample calls somethingElse, not sessionIdUnique that makes it",
  );
  expect(() => sampleFailures([made], { session_id_unique: { ...failing, run: () => sessionIdUnique(listPage(['call-1'])) } })).toThrow(
    "session_id_unique's sample makes no violation labelled session_id_unique",
  );
  expect(() => sampleFailures([made], { session_id_unique: failing, made_up_label: failing })).toThrow(
    'made_up_label has a sample but no code makes it',
  );
  expect(Object.keys(CHECK_SAMPLES).length).toBe(checkLabels().length);
});

/** The labels whose maker is not named for them, each with the reason: the only ones allowed. */
const NOT_NAMED_FOR_THE_LABEL: Readonly<Record<string, string>> = {
  get_call_envelope:
    "made by deployedGetCallEnvelope (core/checks/get-call-envelope.ts): getCallEnvelope, its name, is calls-in.ts's finder of the call in a Get Call body, used across the core",
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
    misnamed([{ label: 'error_code', producer: 'carriesErrorCode', file: 'core/checks/errors.ts', requirement: '', summary: '' }], {}),
  ).toEqual(['error_code is made by carriesErrorCode (core/checks/errors.ts), not errorCode']);
});
