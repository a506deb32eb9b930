// The suite itself run through the judging proxy (`npm run conformance -- proxy --target …`, its base
// URLs pointed at the proxy) gets the verdict it gets without it, requirement for requirement: the
// proxy alters nothing the suite could see. And the proxy judges the suite's traffic as it passes:
// against the clean reference, with its hostile probes and wrong keys, it finds no violation; against
// a reference with a fault that shows in any list, it finds the fault's requirement, as the suite does.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { findFault } from '../../reference/faults/catalog.ts';
import { referenceTargetEnv, runSuite, SELF_TEST_SEED } from '../runner/run-suite.ts';
import { freshDir, readReports, SUITE_RUN_TIMEOUT_MS, withReference } from '../reports/report-runs.ts';
import { startProxyProcess } from './proxy-process.ts';

test.setTimeout(3 * SUITE_RUN_TIMEOUT_MS);

const FAULT = 'negative-minutes-for-rejections';

async function suiteRun(base: string) {
  const reports = freshDir('proxy-suite');
  const run = await runSuite(
    ['--project=conformance'],
    { ...referenceTargetEnv(base), CONFORMANCE_SEED: SELF_TEST_SEED, CONFORMANCE_RUNS: '5', REPORT_DIR: reports },
    SUITE_RUN_TIMEOUT_MS,
  );
  const { results } = readReports(reports);
  const failing = results.requirements.filter((requirement) => requirement.status === 'fail').map((requirement) => requirement.id);
  return { code: run.code, verdict: results.verdict, failing, requests: results.summary.requests, output: run.stdout.slice(-3000) };
}

/** The suite against `base` directly, then through the judging proxy in front of it; and what the proxy judged. */
async function directAndThroughTheProxy(base: string) {
  const direct = await suiteRun(base);
  const reports = freshDir('proxy-suite-passive');
  const proxy = await startProxyProcess(['--target', base, '--port', '0'], { REPORT_DIR: reports });
  let through;
  try {
    through = await suiteRun(proxy.base);
  } catch (error) {
    await proxy.stop('SIGKILL');
    throw error;
  }
  const exit = await proxy.stop('SIGTERM');
  // A proxy that wrote no report says why in its output: that is the failure to show.
  if (!existsSync(join(reports, 'results.json')))
    throw new Error(`the proxy wrote no report (exit ${exit.code}):\n${exit.stdout.slice(-3000)}\n${exit.stderr.slice(-3000)}`);
  return { direct, through, exit, passive: readReports(reports).results };
}

test('the suite through the proxy in front of the clean reference: CONFORMANT as without it, and the proxy finds no violation in its traffic', async () => {
  const { direct, through, exit, passive } = await withReference(undefined, directAndThroughTheProxy);
  expect(direct.verdict, direct.output).toBe('CONFORMANT');
  expect(through.verdict, through.output).toBe('CONFORMANT');
  expect(through.code).toBe(direct.code);
  expect(through.failing).toEqual(direct.failing);
  expect(exit.code, exit.stdout).toBe(0);
  expect(passive.verdict).toMatch(/^NO VIOLATIONS IN \d+ EXCHANGES$/);
  // The suite's requests, its preflight's and its learning's all passed and were judged, or were left
  // to the sampler by rule and counted so: the suite sends pages of up to 2 MB in bursts, faster than
  // the judge reads them when the machine is busy, and the proxy then judges whole connections by
  // design (proxy-sampling.spec.ts). That the judge finds nothing in the whole of the suite's traffic
  // is shown on its recording (suite-har.spec.ts); here, that nothing passes uncounted.
  const behind = Object.entries(passive.passive!.ignored)
    .filter(([reason]) => /^exchanges (sampled out|not judged): the judge fell behind/.test(reason))
    .reduce((total, [, count]) => total + count, 0);
  expect(passive.passive!.entries + behind, exit.stdout).toBeGreaterThanOrEqual(through.requests);
  expect(passive.passive!.exchanges, exit.stdout).toBeGreaterThan(0);
  if (behind > 0) expect(exit.stdout).toMatch(/judged a share of the traffic: [\d.]+% \(\d+ of \d+ exchanges\)/);
});

test(`the suite through the proxy in front of the reference with the fault ${FAULT}: NON-CONFORMANT as without it, and the proxy finds the fault's requirement in the traffic`, async () => {
  const { direct, through, exit, passive } = await withReference(FAULT, directAndThroughTheProxy);
  expect(direct.verdict, direct.output).toBe('NON-CONFORMANT');
  expect(through.verdict, through.output).toBe('NON-CONFORMANT');
  expect(through.code).toBe(1);
  expect(through.failing).toEqual(direct.failing);
  expect(exit.code, exit.stdout).toBe(1);
  expect(exit.stdout).toContain('Passive verdict: VIOLATIONS FOUND.');
  expect(passive.verdict).toBe('VIOLATIONS FOUND');
  const found = passive.requirements.filter((requirement) => requirement.status === 'fail').map((requirement) => requirement.id);
  for (const id of findFault(FAULT)!.requirements) expect(found).toContain(id);
  // And nothing the suite itself did not find: the traffic shows less than the suite, never more.
  for (const id of found) expect(direct.failing).toContain(id);
});
