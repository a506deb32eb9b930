// What answers older than their arrival cost the suite (core/checks/answer-age.ts): whole runs against
// the reference living at one new call a second, answering fresh, behind a list cache of 10 s, and
// with lists and Get Call from a replica 10 s behind, interleaved so the machine's drift hits all
// alike, over loopback and behind a 50 ms latency proxy. A comparison that met an old answer waits
// out MAX_ANSWER_AGE before it asks again; the targets: every clean run CONFORMANT, at most 1.5x the
// time of the same target answering fresh. A failing run too: a fault that drops calls from a
// filtered answer for good, NON-CONFORMANT fresh and old alike, and what the waits cost it.
import { createServer, type ReferenceOptions } from '../../reference/server.ts';
import type { AnswerAges } from '../../reference/answer-age.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { startLatencyProxy } from './latency-proxy.ts';
import { timeSuiteRun, type SuiteRun } from './processes.ts';
import { median, ratio, seconds, times } from './stats.ts';
import type { Target } from './render.ts';

const AGES: ReadonlyArray<{ label: string; answerAge?: AnswerAges }> = [
  { label: 'fresh' },
  { label: 'lists cached 10 s', answerAge: { list: { mode: 'cache', seconds: 10 } } },
  { label: 'lists and Get Call 10 s behind', answerAge: { list: { mode: 'replica', seconds: 10 }, get: { mode: 'replica', seconds: 10 } } },
];
const LATENCIES_MS = [0, 50] as const;
const TARGET_RATIO = 1.5;
const FAILING_FAULT = 'uid-drops-unanswered-one-to-one';

export interface OldAnswersResults {
  calls: number;
  rows: Array<{ latencyMs: number; label: string; totalMs: number; requests: number; verdicts: string[]; timeRatio: number }>;
  failing: Array<{ label: string; totalMs: number; requests: number; verdict: string; timeRatio: number }>;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** One whole run against a reference of its own, living at one call a second, behind the latency given. */
async function runAgainst(calls: number, options: ReferenceOptions, latencyMs: number, expectedExit: number): Promise<SuiteRun> {
  const reference = createServer({ calls, live: { rate: 1 }, ...options });
  const base = await reference.listen(0);
  const proxy = latencyMs > 0 ? await startLatencyProxy(base, latencyMs) : undefined;
  try {
    return await timeSuiteRun(calls, proxy?.base ?? base, expectedExit, { env: { CONFORMANCE_SEED: '424242' } });
  } finally {
    await proxy?.close();
    await reference.close();
  }
}

export async function measureOldAnswers(runs: number, calls: number): Promise<OldAnswersResults> {
  const rows: OldAnswersResults['rows'] = [];
  for (const latencyMs of LATENCIES_MS) {
    const measured = AGES.map(() => [] as SuiteRun[]);
    for (let run = 1; run <= runs; run += 1) {
      for (const [index, { label, answerAge }] of AGES.entries()) {
        log(`a run against the reference living, answering ${label}${latencyMs ? ` behind ${latencyMs} ms` : ''} (${run}/${runs})`);
        measured[index]!.push(await runAgainst(calls, answerAge ? { answerAge } : {}, latencyMs, 0));
      }
    }
    const fresh = median(measured[0]!.map((run) => run.totalMs));
    AGES.forEach(({ label }, index) => {
      const all = measured[index]!;
      const totalMs = median(all.map((run) => run.totalMs));
      rows.push({
        latencyMs,
        label,
        totalMs,
        requests: median(all.map((run) => run.requests)),
        verdicts: all.map((run) => run.verdict),
        timeRatio: ratio(totalMs, fresh),
      });
    });
  }
  return { calls, rows, failing: await measureFailing(calls) };
}

/** The fault's own tests are not chosen here: the whole suite, as a user's failing run. */
async function measureFailing(calls: number): Promise<OldAnswersResults['failing']> {
  const fault = findFault(FAILING_FAULT)!;
  const failing: OldAnswersResults['failing'] = [];
  for (const { label, answerAge } of AGES.slice(0, 2)) {
    log(`a failing run (${FAILING_FAULT}) against the reference living, answering ${label}`);
    const run = await runAgainst(calls, { fault, ...(answerAge && { answerAge }) }, 0, 1);
    failing.push({ label, totalMs: run.totalMs, requests: run.requests, verdict: run.verdict, timeRatio: 1 });
  }
  const fresh = failing[0]!.totalMs;
  return failing.map((run) => ({ ...run, timeRatio: ratio(run.totalMs, fresh) }));
}

export function oldAnswersTargets(results: OldAnswersResults): Target[] {
  const old = results.rows.filter((row) => row.label !== 'fresh');
  const worst = old.reduce((most, row) => (row.timeRatio > most.timeRatio ? row : most));
  const conformant = results.rows.every((row) => row.verdicts.every((verdict) => verdict === 'CONFORMANT'));
  const caught = results.failing.every((run) => run.verdict === 'NON-CONFORMANT');
  return [
    {
      name: `A run against a target answering up to 10 s old within ${TARGET_RATIO}x of it answering fresh in time`,
      value: `${times(worst.timeRatio)} (${worst.label}${worst.latencyMs ? `, ${worst.latencyMs} ms` : ', loopback'})`,
      met: worst.timeRatio <= TARGET_RATIO,
    },
    { name: 'A clean target answering old CONFORMANT on every run', value: conformant ? 'every run' : 'not every run', met: conformant },
    { name: `${FAILING_FAULT} NON-CONFORMANT answering fresh and old`, value: caught ? 'both' : 'not both', met: caught },
  ];
}

export function renderOldAnswers(results: OldAnswersResults): string[] {
  const where = (latencyMs: number) => (latencyMs ? `${latencyMs} ms` : 'loopback');
  return [
    `**Answers older than their arrival** (whole runs against the reference of ${results.calls.toLocaleString('en')} calls living at one new call a second, seed 424242, interleaved; MAX_ANSWER_AGE at its default, 10 s):`,
    '',
    '| Latency | Answers | Total | Requests | Time | Verdicts |',
    '|---:|---|---:|---:|---:|---|',
    ...results.rows.map(
      (row) =>
        `| ${where(row.latencyMs)} | ${row.label} | ${seconds(row.totalMs)} | ${Math.round(row.requests).toLocaleString('en')} | ${times(row.timeRatio)} | ${[...new Set(row.verdicts)].join(', ')} |`,
    ),
    '',
    `**A failing run** (\`${FAILING_FAULT}\`, the whole suite, one run each, loopback):`,
    '',
    '| Answers | Total | Requests | Time | Verdict |',
    '|---|---:|---:|---:|---|',
    ...results.failing.map(
      (run) =>
        `| ${run.label} | ${seconds(run.totalMs)} | ${run.requests.toLocaleString('en')} | ${times(run.timeRatio)} | ${run.verdict} |`,
    ),
    '',
  ];
}
