// Known failures (CONFORMANCE_EXPECTATIONS), run as a team gating its staging runs them: against the
// reference with one catalog fault, an expectations file that lists what the fault breaks makes the
// run CONFORMANT with the failure shown as expected; an empty file leaves it NON-CONFORMANT; a listed
// requirement that passes is an unexpected pass; an entry past its date counts as not listed.
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFault } from '../../reference/faults/catalog.ts';
import { referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports, SUITE_RUN_TIMEOUT_MS, withReference } from '../reports/report-runs.ts';

test.describe.configure({ mode: 'default' });
test.setTimeout(SUITE_RUN_TIMEOUT_MS);

const FAULT = 'minutes-of-initiator-only';
const [BROKEN] = findFault(FAULT)!.requirements;
/** The tests a run needs here: the fault's requirement's own, and one that passes. */
const GREP = `${BROKEN} |CALLS-GET-OK `;

function expectationsFile(yaml: string): string {
  const file = join(freshDir('expectations'), 'known-failures.yaml');
  writeFileSync(file, yaml);
  return file;
}

/** The counts of the console's last progress line ("3/3 tests: 2 passed, 1 failed in 9.8 s"), by results.json's names. */
function finalProgress(stdout: string): Record<string, number> {
  const line = stdout
    .split('\n')
    .filter((text) => /^\d+\/\d+ tests.* in \d+\.\d s$/.test(text))
    .at(-1);
  expect(line, stdout.slice(-3000)).toBeDefined();
  const words: Record<string, string> = {
    passed: 'passed',
    failed: 'failed',
    'timed out': 'timedOut',
    skipped: 'skipped',
    interrupted: 'interrupted',
  };
  return Object.fromEntries(
    [...line!.matchAll(/(\d+) (passed|failed|timed out|skipped|interrupted)/g)].map(([, n, word]) => [words[word!]!, Number(n)]),
  );
}

const nonZero = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0));

async function runWith(yaml: string, args: string[] = ['--grep', GREP]) {
  const reports = freshDir('report-known');
  const run = await withReference(FAULT, (base) =>
    runScript(
      CLI.conformance,
      [...args, `--output=${freshDir('artefacts')}`],
      { ...referenceTargetEnv(base), REPORT_DIR: reports, CONFORMANCE_EXPECTATIONS: expectationsFile(yaml) },
      SUITE_RUN_TIMEOUT_MS,
    ),
  );
  return { run, ...readReports(reports) };
}

test('the whole suite against a fault, with an expectations file listing what it breaks: exit 0, the failure shown as expected', async () => {
  const { run, results, html, junit } = await runWith(
    `- requirement: ${BROKEN}\n  reason: counts the initiator's minutes; fix scheduled for 4.2\n  until: 2099-03-01\n`,
    [],
  );
  expect(run.code, run.stdout.slice(-3000)).toBe(0);
  expect(results.verdict).toBe('CONFORMANT');
  expect(results.requirements.find((entry) => entry.id === BROKEN)).toMatchObject({
    status: 'expected-fail',
    expected: { reason: "counts the initiator's minutes; fix scheduled for 4.2", until: '2099-03-01', expired: false },
  });
  expect(results.expectations).toEqual({
    file: expect.stringMatching(/known-failures\.yaml$/),
    expectedFailures: [BROKEN],
    unexpectedPasses: [],
    expired: [],
  });
  expect(results.summary.requirements.error).toBe(0);
  expect(html).toContain('<section id="expectations">');
  expect(html).toMatch(new RegExp(`<tr id="req-${BROKEN}"[^>]*data-status="expected-fail"`));
  expect(junit).toMatch(new RegExp(`name="${BROKEN} [^"]*">\\n\\s*<skipped message="expected failure: counts the initiator`));
  // Known failures on the console too, and the progress counts the tests as results.json does: the
  // listed requirement's test failed (Playwright expected it to, with test.fail()).
  expect(run.stdout).toContain(
    `Known failures (${results.expectations!.file}):\n  Failed as expected, not counted against the verdict (1): ${BROKEN}\n`,
  );
  expect(finalProgress(run.stdout)).toEqual(nonZero(results.summary.tests));
  expect(results.summary.tests.failed).toBeGreaterThan(0);
  // A requirement the interface cannot show is no test case in JUnit, skipped or otherwise.
  const notTestable = results.summary.requirements['not-testable'];
  expect(notTestable).toBeGreaterThan(0);
  expect(junit).not.toContain('<skipped message="not-testable');
  expect(junit.match(/<property name="not-testable" value="/g)).toHaveLength(notTestable);
  expect(junit).toMatch(new RegExp(`<testsuites [^>]* tests="${results.requirements.length - notTestable}"`));
});

test('with the file empty, the same run is NON-CONFORMANT: exit 1', async () => {
  const { run, results } = await runWith('');
  expect(run.code).toBe(1);
  expect(results.verdict).toBe('NON-CONFORMANT');
  expect(results.expectations).toMatchObject({ expectedFailures: [], unexpectedPasses: [] });
});

test('listing a requirement that passes: exit 0, and unexpectedPasses names it', async () => {
  const { run, results } = await runWith(
    `- requirement: ${BROKEN}\n  reason: known\n- requirement: CALLS-GET-OK\n  reason: was broken last month\n`,
  );
  expect(run.code, run.stdout.slice(-3000)).toBe(0);
  expect(results.expectations).toMatchObject({ expectedFailures: [BROKEN], unexpectedPasses: ['CALLS-GET-OK'] });
  expect(results.requirements.find((entry) => entry.id === 'CALLS-GET-OK')).toMatchObject({
    status: 'pass',
    expected: { reason: 'was broken last month' },
  });
  expect(run.stdout).toContain('  Passed though listed; take them off the list (1): CALLS-GET-OK\n');
  // Playwright counts the listed test that passed as failed; the progress counts it passed, as results.json does.
  expect(finalProgress(run.stdout)).toEqual(nonZero(results.summary.tests));
});

test('an entry past its date counts as not listed: NON-CONFORMANT, and expired names it', async () => {
  const { run, results } = await runWith(`- requirement: ${BROKEN}\n  reason: was to be fixed in 4.1\n  until: 2020-01-31\n`);
  expect(run.code).toBe(1);
  expect(results.expectations).toMatchObject({ expectedFailures: [], expired: [BROKEN] });
  expect(results.requirements.find((entry) => entry.id === BROKEN)).toMatchObject({ status: 'fail', expected: { expired: true } });
  expect(run.stdout).toContain(`  Listed past their date, judged as not listed (1): ${BROKEN}\n`);
});

for (const [what, yaml, says] of [
  [
    'names a requirement the catalog does not have',
    '- requirement: CALL-NO-SUCH-THING\n  reason: x\n',
    /entry 1 names an unknown requirement CALL-NO-SUCH-THING/,
  ],
  ['is not a list of entries', 'requirement: CALLS-GET-OK\n', /must be a list of \{ requirement, reason, until\? \} entries/],
  ['has a date that is not one', '- requirement: CALLS-GET-OK\n  reason: x\n  until: next spring\n', /\/0\/until must match format "date"/],
  ['is not YAML', '- requirement: [unclosed\n', /is not valid YAML/],
] as const) {
  test(`an expectations file that ${what} is a configuration error: exit 2, one line, before any test`, async () => {
    const run = await runScript(CLI.conformance, [], {
      CONFORMANCE_EXPECTATIONS: expectationsFile(yaml),
      REPORT_DIR: freshDir('report-bad'),
    });
    expect(run.code).toBe(2);
    const lines = run.stderr
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('Configuration error'));
    expect(lines).toEqual([expect.stringMatching(/^Configuration error: CONFORMANCE_EXPECTATIONS /)]);
    expect(lines[0]).toMatch(says);
    expect(run.stdout).not.toContain('Running');
  });
}

test('certification refuses a run that uses expectations, before any test', async () => {
  const run = await runScript(CLI.certify, ['--out', freshDir('bundle')], {
    CONFORMANCE_EXPECTATIONS: expectationsFile(`- requirement: ${BROKEN}\n  reason: known\n`),
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /^Configuration error: CONFORMANCE_EXPECTATIONS excuses known failures; a certified run is judged without them/m,
  );
});
