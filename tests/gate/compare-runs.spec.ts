// Two runs compared, as a user does it: `npm run conformance -- compare BASE NEW` of a clean run
// against a run of the reference with one fault exits 1 and names what the fault broke; of two clean
// runs, 0. BASELINE on a run adds the same comparison to its report and to what it prints.
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFault } from '../../reference/faults/catalog.ts';
import { referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, once, readReports, SUITE_RUN_TIMEOUT_MS, withReference } from '../reports/report-runs.ts';

test.describe.configure({ mode: 'default' });
test.setTimeout(3 * SUITE_RUN_TIMEOUT_MS);

const FAULT = 'filters-combined-with-or';
const BROKEN = findFault(FAULT)!.requirements;
const GREP = `${BROKEN.map((id) => `${id} `).join('|')}|CALLS-GET-OK |CALLS-LIST-DATE-FILTER-SEMANTICS `;

async function runAgainst(fault: string | undefined, env: Record<string, string> = {}) {
  const reports = freshDir('report-compare');
  const run = await withReference(fault, (base) =>
    runScript(
      CLI.conformance,
      ['--grep', GREP, `--output=${freshDir('artefacts')}`],
      { ...referenceTargetEnv(base), REPORT_DIR: reports, ...env },
      SUITE_RUN_TIMEOUT_MS,
    ),
  );
  return { run, dir: reports, ...readReports(reports) };
}

const clean = once(() => runAgainst(undefined));
const faulty = once(() => runAgainst(FAULT));

test('compare of a clean run against a faulty one exits 1, naming each requirement the fault broke as newly failing', async () => {
  const [base, next] = [await clean(), await faulty()];
  expect(base.results.verdict).toBe('CONFORMANT');
  const compared = await runScript(CLI.conformance, ['compare', base.dir, `${next.dir}/results.json`]);
  expect(compared.code, compared.stdout).toBe(1);
  const newly = compared.stdout.slice(compared.stdout.indexOf('Newly failing'), compared.stdout.indexOf('Fixed ('));
  for (const id of BROKEN) expect(newly).toMatch(new RegExp(`^  ${id} \\[MUST\\]: pass → fail$`, 'm'));
});

test('compare of two clean runs exits 0, with nothing newly failing', async () => {
  const again = await runAgainst(undefined);
  const compared = await runScript(CLI.conformance, ['compare', (await clean()).dir, again.dir]);
  expect(compared.code, compared.stdout).toBe(0);
  expect(compared.stdout).toContain('Newly failing (0)');
});

test('compare shows of a "not shown" item what its observations differ in, not both in full', async () => {
  const { results } = await clean();
  const item = results.requirements.find((result) => result.kind === 'not-shown')!;
  const shared = (n: number) => `${'the answer to an unusual request carried these words, the same in both runs '.repeat(3)}(${n})`;
  const answered = (status: number) =>
    `with onBehalfOf: status 200; without it: status ${status} {"error":{"code":"ERR_BAD_REQUEST","message":"${'Invalid request: onBehalfOf. '.repeat(8)}"}}`;
  const withObservations = (observations: string[]) => ({
    ...results,
    requirements: results.requirements.map((result) => (result.id === item.id ? { ...result, observations } : result)),
  });
  const [baseDir, nextDir] = [freshDir('compare-base'), freshDir('compare-next')];
  writeFileSync(join(baseDir, 'results.json'), JSON.stringify(withObservations([shared(1), answered(400), shared(2)])));
  writeFileSync(join(nextDir, 'results.json'), JSON.stringify(withObservations([shared(1), answered(422), shared(2)])));
  const compared = await runScript(CLI.conformance, ['compare', baseDir, nextDir]);
  expect(compared.code, compared.stderr).toBe(0);
  const differently = compared.stdout.slice(compared.stdout.indexOf('Answered differently'));
  const lines = differently.split('\n').filter((line) => line.startsWith('  '));
  expect(lines[0]).toMatch(new RegExp(`^  ${item.id}: with onBehalfOf: …it: status 400 \\S*… → with onBehalfOf: …it: status 422 \\S*…$`));
  expect(lines[1]).toBe('    (2 other observation(s) the same in both)');
  for (const line of lines) expect(line.length).toBeLessThan(300);
});

test("compare refuses what is not a run's results, with one line and exit 2", async () => {
  const missing = await runScript(CLI.conformance, ['compare', (await clean()).dir, '/no/such/results.json']);
  expect(missing.code).toBe(2);
  expect(missing.stderr.trim()).toBe('compare: /no/such/results.json is not a results.json, nor a folder that holds one');
  const alone = await runScript(CLI.conformance, ['compare', (await clean()).dir]);
  expect(alone.code).toBe(2);
});

test('BASELINE on a run adds the comparison to results.json, to the HTML report and to what the run prints', async () => {
  const { run, results, html } = await runAgainst(FAULT, { BASELINE: (await clean()).dir });
  expect(run.code).toBe(1);
  expect(results.comparison?.newlyFailing.map((change) => change.id).sort()).toEqual([...BROKEN].sort());
  expect(results.comparison?.base.verdict).toBe('CONFORMANT');
  expect(html).toContain('<section id="comparison"><h2>Compared with the baseline</h2>');
  expect(run.stdout).toContain('Compared with the baseline:');
});

test("a BASELINE that is not a run's results stops the run before any test, with one line naming the variable", async () => {
  const run = await runScript(CLI.conformance, [], { BASELINE: '/no/such/folder', REPORT_DIR: freshDir('report-bad') });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /^Configuration error: BASELINE must name a run's results\.json or its folder: \/no\/such\/folder is not a results\.json/m,
  );
});
