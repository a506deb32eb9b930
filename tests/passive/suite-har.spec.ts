// Passive judging of the suite's own traffic. A HAR recorded on the wire while the suite runs
// against the reference (record-suite.ts) shows no violation; the same requests replayed against
// the reference with a fault of the catalog whose breakage shows in traffic (replay.ts) are found,
// naming the fault's requirement. A handful of representative faults here, one per kind of check
// (schema, invariant, filter, Get Call against the list, error code); the whole catalog's list is
// computed once by fault-visibility.ts and written in docs/passive.md.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CoverageItem } from '../../core/coverage/model.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { CLI, freshDir, once, readReports, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { harOf } from './recording-forwarder.ts';
import { recordSuiteHar } from './record-suite.ts';
import { replayAgainst, requestsOf } from './replay.ts';

test.describe.configure({ mode: 'default' });
test.setTimeout(3 * SUITE_RUN_TIMEOUT_MS);

/** One kind of check each: a field's schema, an invariant, a filter, Get Call against the list, an error code. */
const FAULTS = [
  'type-outside-enum',
  'duration-leaves-out-video',
  'type-filter-ignored',
  'get-answers-next-call',
  'missing-key-reported-as-invalid',
];

const recorded = once(() => recordSuiteHar(undefined));
/** Its requests, read once for every fault's replay. */
const recordedRequests = once(async () => requestsOf((await recorded()).har));

async function judgeHar(path: string, env: Record<string, string> = {}) {
  const dir = freshDir('passive-suite-report');
  const run = await runScript(CLI.conformance, ['har', path], { REPORT_DIR: dir, ...env });
  return { run, dir, results: readReports(dir).results };
}
/** The recording judged by `har`, once for the tests that read it. */
const judgedRecording = once(async () => judgeHar((await recorded()).har));

test('a HAR recorded while the suite runs against the reference shows no violation, and holds no key in any output', async () => {
  const { har, entries, suiteCode } = await recorded();
  expect(suiteCode).toBe(0);
  expect(entries).toBeGreaterThan(100);
  // The forwarder records some bodies base64, as browsers do for bodies they take for binary.
  expect(readFileSync(har, 'utf8')).toContain('"encoding":"base64"');
  const { run, dir, results } = await judgedRecording();
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(results.verdict).toBe(`NO VIOLATIONS IN ${entries} EXCHANGES`);
  expect(results.failures).toEqual([]);
  expect(results.passive?.redacted).toContain('apikey');
  const outputs = [run.stdout, run.stderr, ...readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8'))].join('\n');
  for (const key of Object.values(DEMO_KEYS)) expect(outputs).not.toContain(key);
  // The calls the suite listed and fetched: Get Call was judged against the list.
  expect(results.requirements.find((entry) => entry.id === 'CALLS-GET-MATCHES-LIST')?.status).toBe('pass');
  expect(results.requirements.find((entry) => entry.id === 'AUTH-EMPTY-KEY')?.status).toBe('pass');
});

test("coverage, item for item: the suite's own run and `har` on its recorded traffic say the same of every item", async () => {
  const { har, suiteCode } = await recorded();
  expect(suiteCode).toBe(0);
  // The suite's reports, beside the HAR (record-suite.ts).
  const active = readReports(join(dirname(har), 'suite-report')).results.coverage;
  const { results } = await judgedRecording();
  expect(active, "the suite's results.json carries coverage").toBeDefined();
  expect(results.coverage, "the HAR's results.json carries coverage").toBeDefined();
  const states = (items: readonly CoverageItem[]) => Object.fromEntries(items.map((item) => [item.id, item.state]));
  const [run, traffic] = [states(active!.items), states(results.coverage!.items)];
  expect(Object.keys(traffic)).toEqual(Object.keys(run));
  // Each item that differs, with what each side says of it, so that a failure shows why.
  const described = (items: readonly CoverageItem[], id: string) => {
    const item = items.find((candidate) => candidate.id === id)!;
    return `${item.state} (${item.count}${item.why === undefined ? '' : `, ${item.why}`}${item.by === undefined ? '' : `, by ${item.by}`})`;
  };
  const differing = Object.keys(run)
    .filter((id) => run[id] !== traffic[id])
    .map((id) => `${id}: run ${described(active!.items, id)}, HAR ${described(results.coverage!.items, id)}`);
  expect(differing).toEqual([]);
  expect(traffic).toEqual(run);
});

for (const name of FAULTS) {
  test(`the suite's traffic against the reference with the fault ${name}: VIOLATIONS FOUND, naming its requirement`, async () => {
    const fault = findFault(name);
    expect(fault, `the catalog has a fault named ${name}`).toBeDefined();
    const entries = await replayAgainst(await recordedRequests(), name);
    const path = join(freshDir('passive-fault'), `${name}.har`);
    writeFileSync(path, JSON.stringify(harOf(entries)));
    const { run, results } = await judgeHar(path, fault!.profile === 'strict' ? { CONFORMANCE_PROFILE: 'strict' } : {});
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain('Passive verdict: VIOLATIONS FOUND.');
    const failed = results.requirements.filter((entry) => entry.status === 'fail').map((entry) => entry.id);
    expect(
      failed.filter((id) => fault!.requirements.includes(id)),
      `found ${failed.join(', ')}`,
    ).not.toEqual([]);
    const failure = results.failures.find((entry) => entry.requirements.some((id) => fault!.requirements.includes(id)));
    expect(failure?.message).toMatch(/Exchange: [\w.-]+\.har, entry \d+[\s\S]*Reproduce with:\s+curl /);
  });
}
