// What judging one answer costs against its size (issue 46, item 2: a List Calls page whose first
// call had 100,000 participant entries made the active run spin for 15 minutes and more, and the
// passive judging of one such entry took 220 s and 529 MB). One HAR per size and shape of entry
// (tests/passive/large-answers.ts: the published list with its first call given 1,000, 10,000 and
// 100,000 more entries, and Get Call answering that call with its entries reversed), each judged as
// `npm run conformance -- har FILE` judges it, in a process of its own (passive-child.ts), beside
// the same answers with no entry added. Each entry's cost is the time above that baseline divided by
// the entries added; linear judging costs the same per entry at every size, a pass over every entry
// for each entry ten times more at each step. Targets: the answer of 100,000 entries judged, its
// verdict and reports written, within 60 s; its time per entry at most twice that at 10,000. Active
// mode too: the whole suite, as a user runs it, against the reference whose one answer (the first page
// of the unfiltered list) holds a call with the largest number of entries added, and with none, its
// verdict and reports within 60 s.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harOf } from '../passive/recording-forwarder.ts';
import { ENTRY_SHAPES, largeAnswerEntries, type EntryShape } from '../passive/large-answers.ts';
import { judgeInChild } from './passive.ts';
import type { Target } from './render.ts';
import { median, ratio } from './stats.ts';
import { hostileAnswers, manyEntries } from '../hostile/hostile-answers.ts';
import { startHostileTarget } from '../hostile/hostile-target.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { referenceTargetEnv, runSuite } from '../runner/run-suite.ts';

const ANSWER_SIZES = [1_000, 10_000, 100_000] as const;
const WITHIN_MS = 60_000;
const LINEAR_RATIO = 2;
/** A whole suite run is killed past this: a run that long has missed its target anyway. */
const SUITE_BOUND_MS = 600_000;

interface AnswerSizeRun {
  shape: EntryShape;
  /** Participant entries added to the call (0: the baseline, the published answers as they are). */
  entries: number;
  /** The List Calls answer's body, in bytes (Get Call's is about the same). */
  listBytes: number;
  /** From the judge's creation to the reports written, in the judging process (medians). */
  ms: number;
  cpuMs: number;
  peakRssMiB: number;
  verdict: string;
  /** Microseconds per entry added, above the baseline (undefined for the baseline). */
  perEntryUs?: number;
  /** perEntryUs against the size before (undefined for the baseline and the first size). */
  perEntryRatio?: number;
}

interface ActiveAnswerRun {
  /** Participant entries added to the call of the one answer (0: the reference as it is). */
  entries: number;
  /** The whole suite's run, from its start to its reports written (medians). */
  ms: number;
  verdict: string;
}

export interface AnswerSizeResults {
  runs: number;
  sizes: readonly number[];
  measured: AnswerSizeRun[];
  /** The whole suite against one answer of the largest size, and of none. */
  active: ActiveAnswerRun[];
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function judgeOnce(
  shape: EntryShape,
  entries: number,
): Promise<{ listBytes: number; judged: Awaited<ReturnType<typeof judgeInChild>> }> {
  const har = largeAnswerEntries(entries, shape);
  const path = join(tmpdir(), `bench-answer-size-${process.pid}-${shape}-${entries}.har`);
  writeFileSync(path, JSON.stringify(harOf(har)));
  try {
    return { listBytes: Buffer.byteLength(har[0]!.response.content.text ?? ''), judged: await judgeInChild(path) };
  } finally {
    rmSync(path, { force: true });
  }
}

export async function measureAnswerSize(runs: number, sizes: readonly number[] = ANSWER_SIZES): Promise<AnswerSizeResults> {
  const measured: AnswerSizeRun[] = [];
  for (const shape of ENTRY_SHAPES) {
    const byShape: AnswerSizeRun[] = [];
    for (const entries of [0, ...sizes]) {
      const taken: Array<Awaited<ReturnType<typeof judgeOnce>>> = [];
      for (let run = 1; run <= runs; run += 1) {
        log(`judging one answer of ${entries} ${shape} entries (${run}/${runs})`);
        taken.push(await judgeOnce(shape, entries));
      }
      byShape.push({
        shape,
        entries,
        listBytes: taken[0]!.listBytes,
        ms: median(taken.map(({ judged }) => judged.ms)),
        cpuMs: median(taken.map(({ judged }) => judged.cpuMs)),
        peakRssMiB: median(taken.map(({ judged }) => judged.peakRssMiB)),
        verdict: taken.at(-1)!.judged.verdict,
      });
    }
    const [baseline, ...rest] = byShape;
    rest.forEach((run, index) => {
      run.perEntryUs = ((run.ms - baseline!.ms) / run.entries) * 1000;
      const before = rest[index - 1];
      if (before?.perEntryUs !== undefined) run.perEntryRatio = ratio(run.perEntryUs, before.perEntryUs);
    });
    measured.push(...byShape);
  }
  const active: ActiveAnswerRun[] = [];
  for (const entries of [0, Math.max(...sizes)]) {
    const taken: Array<{ ms: number; verdict: string }> = [];
    for (let run = 1; run <= runs; run += 1) {
      log(`the whole suite against one answer of ${entries} entries added (${run}/${runs})`);
      taken.push(await suiteAgainst(entries));
    }
    active.push({ entries, ms: median(taken.map(({ ms }) => ms)), verdict: taken.at(-1)!.verdict });
  }
  return { runs, sizes, measured, active };
}

/** The whole suite against the reference with `entries` added to its one answer, behind the catalog's rewriting proxy either way. */
async function suiteAgainst(entries: number): Promise<{ ms: number; verdict: string }> {
  const many = hostileAnswers('').find((hostile) => hostile.name === 'many-entries')!;
  const target = await startHostileTarget({ ...many, fault: entries === 0 ? undefined : () => manyEntries(entries) }, DEMO_KEYS);
  const reports = mkdtempSync(join(tmpdir(), 'bench-answer-size-suite-'));
  try {
    const started = performance.now();
    await runSuite(['--project=conformance'], { ...referenceTargetEnv(target.base), REPORT_DIR: reports }, SUITE_BOUND_MS);
    const ms = performance.now() - started;
    return { ms, verdict: (JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as { verdict: string }).verdict };
  } finally {
    rmSync(reports, { recursive: true, force: true });
    await target.close();
  }
}

const largest = (results: AnswerSizeResults) => results.measured.filter((run) => run.entries === Math.max(...results.sizes));

export function answerSizeTargets(results: AnswerSizeResults): Target[] {
  const active = results.active.find((run) => run.entries === Math.max(...results.sizes));
  return [
    ...passiveTargets(results),
    ...(active
      ? [
          {
            name: `The whole suite against one answer with a call of ${active.entries.toLocaleString('en')} participant entries (active mode), verdict and reports written, < ${WITHIN_MS / 1000} s`,
            value: `${(active.ms / 1000).toFixed(1)} s, ${active.verdict} (${(results.active[0]!.ms / 1000).toFixed(1)} s with none added)`,
            met: active.ms < WITHIN_MS,
          },
        ]
      : []),
  ];
}

function passiveTargets(results: AnswerSizeResults): Target[] {
  return largest(results).flatMap((run) => [
    {
      name: `One answer of ${run.entries.toLocaleString('en')} ${run.shape} participant entries (${mib(run.listBytes)}) judged in passive mode, verdict and reports written, < ${WITHIN_MS / 1000} s`,
      value: `${(run.ms / 1000).toFixed(1)} s (${(run.cpuMs / 1000).toFixed(1)} s of CPU, ${run.peakRssMiB.toFixed(0)} MiB peak)`,
      met: run.ms < WITHIN_MS,
    },
    {
      name: `Its time per entry ≤ ${LINEAR_RATIO}x that at the size before (linear: about 1x; a pass over every entry for each: about 10x)`,
      value: `${times(run.perEntryRatio)} (${us(run.perEntryUs)} per entry)`,
      met: run.perEntryRatio !== undefined && run.perEntryRatio <= LINEAR_RATIO,
    },
  ]);
}

export function renderAnswerSize(results: AnswerSizeResults): string[] {
  return [
    `**One answer against its size** (passive mode, \`npm run conformance -- har\`: one List Calls answer whose first call has the entries added, and Get Call answering that call; medians of ${results.runs} run(s), each in a process of its own, from the judge's creation to the reports written):`,
    '',
    '| Entries added | Shape | List answer | Time | CPU | Peak memory | Per entry (above none added) | Per entry against the size before | Verdict |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---|',
    ...results.measured.map(
      (run) =>
        `| ${run.entries.toLocaleString('en')} | ${run.shape} | ${mib(run.listBytes)} | ${(run.ms / 1000).toFixed(2)} s | ${(run.cpuMs / 1000).toFixed(2)} s | ${run.peakRssMiB.toFixed(0)} MiB | ${us(run.perEntryUs)} | ${times(run.perEntryRatio)} | ${run.verdict} |`,
    ),
    '',
    `**The whole suite against one such answer** (active mode, \`npx playwright test\` against the reference whose first page of the unfiltered list has a call with the entries added, missing fields; medians of ${results.runs} run(s)):`,
    '',
    '| Entries added | Time | Verdict |',
    '|---:|---:|---|',
    ...results.active.map((run) => `| ${run.entries.toLocaleString('en')} | ${(run.ms / 1000).toFixed(1)} s | ${run.verdict} |`),
  ];
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
const us = (value: number | undefined) => (value === undefined ? '' : `${value.toFixed(1)} µs`);
const times = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '' : `${value.toFixed(2)}x`);
