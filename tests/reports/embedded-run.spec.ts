// `npm run conformance` on a fresh machine: against the embedded reference it exits 0 with a
// CONFORMANT verdict in all three reports; and the same run sharded in two, its blob reports merged
// with `npm run conformance -- merge`, gives the same conformance report.
import { test, expect } from '@playwright/test';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isTestable, loadCatalog } from '../../openapi/catalog.ts';
import type { ConformanceReport } from '../../core/results/report-model.ts';
import { runSuite, runScript, SELF_TEST_SEED } from '../runner/run-suite.ts';
import { CLI, freshDir, once, readReports, runConformance, SUITE_RUN_TIMEOUT_MS } from './report-runs.ts';

const catalog = loadCatalog();
test.describe.configure({ mode: 'default' });
test.setTimeout(3 * SUITE_RUN_TIMEOUT_MS);

const unshardedRun = once(async () => {
  const dir = freshDir('report-embedded');
  return { run: await runConformance(dir), reports: readReports(dir) };
});

test('npm run conformance against the embedded reference exits 0 and writes a CONFORMANT report in three forms', async () => {
  const { run, reports } = await unshardedRun();
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Conformance verdict: CONFORMANT.');

  const { results, junit, html } = reports;
  expect(results.verdict).toBe('CONFORMANT');
  expect(results.exitCode).toBe(0);
  expect(results.summary.tests).toMatchObject({ failed: 0, skipped: 0, timedOut: 0, interrupted: 0 });
  expect(results.summary.tests.passed).toBeGreaterThan(50);
  // Every requirement the interface can observe was judged and passed; the rest say why not.
  const expected = catalog.requirements.map((entry) => ({
    id: entry.id,
    level: entry.level,
    status: isTestable(entry) ? 'pass' : 'not-testable',
  }));
  expect(results.requirements.map(({ id, level, status }) => ({ id, level, status }))).toEqual(expected);
  expect(results.run).toMatchObject({ seed: Number(SELF_TEST_SEED), profile: 'spec', seeds: [Number(SELF_TEST_SEED)] });
  expect(results.run.configuration).toMatchObject({ apiKey: '[redacted]', restrictedApiKey: '[redacted]' });
  expect(results.operations.map((operation) => operation.operation)).toEqual(['getCall', 'listCalls', 'markGroupConversationAsUnread']);
  expect(results.summary.requests).toBe(results.operations.reduce((sum, operation) => sum + operation.requests, 0));
  // Every write is listed, by address: the fixture group's among them, and no read.
  expect(results.writes.every((write) => write.method === 'DELETE' && /\/groups\/.+\/conversation\/read$/.test(write.url))).toBe(true);
  expect(
    results.writes
      .filter((write) => write.url.endsWith('/groups/group-0001/conversation/read'))
      .reduce((sum, write) => sum + write.count, 0),
  ).toBeGreaterThan(10);
  expect(results.writes.reduce((sum, write) => sum + write.count, 0)).toBe(
    results.operations.find((operation) => operation.operation === 'markGroupConversationAsUnread')!.requests,
  );
  expect(html).toContain('<section id="writes"><h2>Writes sent</h2>');

  // One test case per requirement the interface can show: the not-testable ones are properties, not skipped cases.
  const notTestable = results.requirements.filter((requirement) => requirement.status === 'not-testable').length;
  expect(notTestable).toBeGreaterThan(0);
  expect(junit).toContain(
    `<testsuites name="Conformance: ${catalog.title}" tests="${catalog.requirements.length - notTestable}" failures="0" errors="0" skipped="0"`,
  );
  expect(html).toContain('data-verdict="CONFORMANT"');

  // Issue 47's targets for the default run: every operation's success and documented error, every
  // enum value of every filter tried on data that tells, at least 95% of the filter pairs; whatever
  // is not covered says why.
  const coverage = results.coverage!;
  const dimension = (id: string) => coverage.dimensions.find((entry) => entry.id === id)!;
  expect(dimension('operations').percent).toBe(100);
  expect(dimension('filters')).toMatchObject({ weak: 0, missing: 0 });
  expect(dimension('pairs').percent).toBeGreaterThanOrEqual(95);
  expect(coverage.items.filter((item) => item.state !== 'covered' && !item.why)).toEqual([]);
  expect(coverage.items.filter((item) => item.state === 'covered' && !item.by)).toEqual([]);
  expect(html).toContain('<section id="coverage">');
});

test("against the embedded reference serving the deployment's readings, npm run conformance exits 0, CONFORMANT, and reports the readings it found", async () => {
  const dir = freshDir('report-deployment-readings');
  const run = await runConformance(dir, [], { REFERENCE_READINGS: 'deployment' });
  expect(run.code, run.stdout.slice(-3000)).toBe(0);
  const { results, html } = readReports(dir);
  expect(results.verdict).toBe('CONFORMANT');
  expect(results.summary.requirements.error).toBe(0);
  const accepted = (subject: string) =>
    results.readings
      .find((reading) => reading.subject === subject)
      ?.candidates.filter((candidate) => candidate.status === 'accepted')
      .map((candidate) => candidate.id);
  expect(accepted('call-minutes')).toEqual(['call-span']);
  expect(accepted('participant-count')).toEqual(['joined-entries']);
  // The deployment's filter counts the entries that joined, as its totalParticipants does.
  expect(accepted('participants-count-filter')).toEqual(['joined-entries']);
  expect(results.requirements.find((entry) => entry.id === 'CALLS-LIST-FILTER-PARTICIPANTS-COUNT')?.readings).toEqual([
    { subject: 'participants-count-filter', accepted: ['joined-entries'] },
  ]);
  expect(results.run.target).toContain("the deployment's readings");
  expect(html).toMatch(/<div class="reading" id="reading-call-minutes"[\s\S]*?data-candidate="call-span" data-status="accepted"/);
});

test('two shards merged with npm run conformance -- merge give the same conformance report as one unsharded run', async () => {
  const blobs = freshDir('blobs');
  for (const shard of ['1/2', '2/2']) {
    // Each shard as on a machine of its own: its own blob folder, the seed pinned as docs/sharding.md says.
    const shardBlobs = freshDir('shard-blobs');
    const run = await runSuite(
      ['--project=conformance', `--shard=${shard}`],
      { PLAYWRIGHT_BLOB_OUTPUT_DIR: shardBlobs },
      SUITE_RUN_TIMEOUT_MS,
    );
    expect(run.code, run.stderr).toBe(0);
    // The suite's compact progress, not a line per test, and the shard's part of the verdict.
    expect(run.stdout).toMatch(/^Running \d+ test\(s\) using \d+ worker\(s\) \(progress only/m);
    expect(run.stdout).not.toMatch(/\[conformance\] ›/);
    expect(run.stdout).toContain('Conformance verdict: CONFORMANT.');
    for (const file of readdirSync(shardBlobs)) copyFileSync(join(shardBlobs, file), join(blobs, file));
  }
  expect(readdirSync(blobs)).toHaveLength(2);
  const mergedDir = freshDir('report-merged');
  const merge = await runScript(CLI.conformance, ['merge', blobs], { REPORT_DIR: mergedDir }, SUITE_RUN_TIMEOUT_MS);
  expect(merge.code, merge.stderr).toBe(0);

  const merged = readReports(mergedDir).results;
  const { results: unsharded } = (await unshardedRun()).reports;
  expect(comparable(merged)).toEqual(comparable(unsharded));
  // Coverage adds up over the shards: each item covered, weak or missing as in the unsharded run.
  const states = (report: ConformanceReport) => Object.fromEntries(report.coverage!.items.map((item) => [item.id, item.state]));
  expect(states(merged)).toEqual(states(unsharded));
  expect(merged.summary.tests.passed).toBe(unsharded.summary.tests.passed);
});

/**
 * What does not depend on how the run was split: the verdict, every requirement's outcome with its
 * tests and observations, the failures, the configuration. Times, ports, and which test's worker
 * first learned the target (so the per-operation counts) do.
 */
function comparable(report: ConformanceReport) {
  const { startedAt: _s, endedAt: _e, durationMs: _d, targetAddresses: _t, runner: _r, ...launched } = report.run;
  // How the run was started differs by design: the shards as docs/sharding.md shows (npx playwright
  // test --shard), the unsharded run through npm run conformance. It only words the rerun hints.
  const { launcher: _l, ...configuration } = launched.configuration;
  const run = { ...launched, configuration };
  return {
    verdict: report.verdict,
    reason: report.verdictReason,
    requirements: report.requirements,
    readings: report.readings,
    failures: report.failures,
    sections: report.sections,
    run,
    tests: report.summary.tests,
  };
}
