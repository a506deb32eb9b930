// results.sarif as runs write it, beside the other reports: a run against the reference with a
// fault names the requirement the fault breaks, at a line that holds it, with a curl line whose key
// is a variable; another seed finds the same fault with the same fingerprint (and SARIF_LOCATION
// reaches the reporter through the configuration); a clean run writes valid SARIF with no result;
// a passive `har` run writes one too. Each run is narrowed to one requirement's test, to stay quick.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { FINGERPRINT_KEY } from '../../reports/render-sarif.ts';
import { referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { harEntry, writeHar } from '../passive/har-entries.ts';
import { CLI, freshDir, once, runConformance, SUITE_RUN_TIMEOUT_MS, withReference } from './report-runs.ts';
import { pointedLine, readSarif, sarifProblems } from './sarif-checks.ts';

const FAULT = 'get-answers-next-call';
const BROKEN = 'CALLS-GET-OK';

test.describe.configure({ mode: 'default' });
test.setTimeout(2 * SUITE_RUN_TIMEOUT_MS);

/** The one test of BROKEN, against the reference with the fault (or none), with `env` added. */
async function narrowedRun(fault: string | undefined, env: Record<string, string>) {
  const dir = freshDir('sarif-run');
  const run = await withReference(fault, (base) => runConformance(dir, ['--grep', `${BROKEN} `], { ...referenceTargetEnv(base), ...env }));
  return { run, dir, text: readFileSync(join(dir, 'results.sarif'), 'utf8'), sarif: readSarif(dir) };
}

const faultyRun = once(() => narrowedRun(FAULT, { CONFORMANCE_SEED: '11' }));

test(`a run against the reference with the fault ${FAULT} writes valid SARIF naming ${BROKEN}, at its line of the catalog`, async () => {
  const { run, text, sarif } = await faultyRun();
  expect(run.code, run.stderr).toBe(1);
  expect(sarifProblems(sarif)).toEqual([]);
  const [only] = sarif.runs;
  expect(only!.tool.driver.rules.length).toBeGreaterThan(100);
  expect(only!.invocations[0]!.properties.verdict).toBe('NON-CONFORMANT');
  expect(only!.results.map((result) => [result.ruleId, result.level])).toEqual([[BROKEN, 'error']]);
  const result = only!.results[0]!;
  expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe('openapi/requirements.yaml');
  expect(pointedLine(result)).toBe(`  - id: ${BROKEN}`);
  expect(result.message.text).toMatch(/Expected: [\s\S]*Received: /);
  // The trace headers the request was sent with come before the address (core/transport/trace-context.ts).
  expect(result.properties.reproduce).toMatch(
    /^curl -sS -X GET -H "apikey: \$API_KEY" -H 'traceparent: 00-[0-9a-f]{32}-[0-9a-f]{16}-01' -H 'x-conformance-test: CALLS-GET-OK [^']*' 'http:\/\/127\.0\.0\.1:\d+\/v3\/calls\//,
  );
  expect(result.properties.rerun).toMatch(/^CONFORMANCE_SEED=11 npm run conformance -- run suite\/calls-get\/\S+\.spec\.ts:\d+$/);
  expect(text).not.toContain(DEMO_KEYS.fullAccess);
});

test('another seed finds the same fault on other calls with the same fingerprint; SARIF_LOCATION=openapi points at the operation', async () => {
  const first = (await faultyRun()).sarif.runs[0]!.results[0]!;
  const { run, sarif } = await narrowedRun(FAULT, { CONFORMANCE_SEED: '12', SARIF_LOCATION: 'openapi' });
  expect(run.code, run.stderr).toBe(1);
  expect(sarifProblems(sarif)).toEqual([]);
  const second = sarif.runs[0]!.results.find((result) => result.ruleId === BROKEN)!;
  expect(second.properties.rerun).toContain('CONFORMANCE_SEED=12 ');
  expect(second.message.text).not.toBe(first.message.text);
  expect(second.partialFingerprints[FINGERPRINT_KEY]).toBe(first.partialFingerprints[FINGERPRINT_KEY]);
  expect(second.locations[0]!.physicalLocation.artifactLocation.uri).toBe('openapi/calls-api.openapi.yaml');
  expect(pointedLine(second)).toBe('    get:');
});

test('a clean run writes valid SARIF with every rule and no result', async () => {
  const { run, sarif } = await narrowedRun(undefined, {});
  expect(run.code, run.stderr).toBe(0);
  expect(sarifProblems(sarif)).toEqual([]);
  expect(sarif.runs[0]!.results).toEqual([]);
  expect(sarif.runs[0]!.invocations[0]!.executionSuccessful).toBe(true);
});

test('a passive har run writes results.sarif too: the violated requirement, the entry that broke it, the keys as variables', async () => {
  const key = 'sarif-passive-key-9a8b7c';
  const call = JSON.parse(readFileSync(new URL('../real-payloads/list-calls.json', import.meta.url), 'utf8')) as { data: unknown[] };
  const broken = { ...call, data: [{ ...(call.data[1] as object), type: 'screenshare' }] };
  const har = writeHar([
    harEntry({ url: 'https://app.call-us.example.test/v3/calls', headers: { apikey: key }, status: 200, body: broken }),
  ]);
  const dir = freshDir('sarif-passive');
  const run = await runScript(CLI.conformance, ['har', har], { REPORT_DIR: dir });
  expect(run.code, run.stderr).toBe(1);
  const text = readFileSync(join(dir, 'results.sarif'), 'utf8');
  expect(text).not.toContain(key);
  const sarif = readSarif(dir);
  expect(sarifProblems(sarif)).toEqual([]);
  expect(sarif.runs[0]!.automationDetails?.id).toBe('calls-conformance/passive/');
  const result = sarif.runs[0]!.results.find((entry) => entry.ruleId === 'CALL-FIELD-TYPE')!;
  expect(result.level).toBe('error');
  expect(result.message.text).toContain('traffic.har, entry 1');
  expect(result.properties.reproduce).toMatch(/^curl -sS -X GET -H "apikey: \$API_KEY" /);
  for (const each of sarif.runs[0]!.results) expect(pointedLine(each)).toBe(`  - id: ${each.ruleId}`);
});
