// `npm run conformance -- diff` (docs/diff.md): the candidate's answers compared with the primary's,
// on the suite's own read plan, noise measured by asking the primary twice, every difference beyond
// noise classed against the words. Exit 0 no difference beyond noise, 1 differences, 2 configuration,
// 3 inconclusive (a side unreachable, too few comparisons, or an operation too noisy to judge).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environment, loadDiffConfig, type DiffConfig } from '../core/run/config.ts';
import { ConfigError, configErrorLine } from '../core/run/config-error.ts';
import type { Wire } from '../core/transport/wire.ts';
import { Pacer } from '../core/transport/rate-limit.ts';
import { TransportError } from '../core/transport/errors.ts';
import { askBothSides, diffSide } from '../core/diff/run-diff.ts';
import { planBound } from '../core/diff/read-plan.ts';
import { writePlanBound, writesAllowed } from '../core/diff/write-plan.ts';
import { LEARNING_REQUESTS } from '../core/run/budget-plan.ts';
import { diffJudging, judgeDiff } from '../core/diff/diff-outcome.ts';
import { errorLine } from '../core/results/visible.ts';
import { redactorFor } from '../reports/redact.ts';
import { diffResults, diffSummaryLines, diffVerdict, renderDiffHtml, renderDiffJunit } from '../reports/diff-report.ts';
import { EXIT } from './playwright-run.ts';

/**
 * What a diff would send, and nothing sent: learning each side, then each planned request three
 * times; with ALLOW_WRITES=true, mark-unread's plan too, on each side's own fixture.
 */
function dryRunLine(config: DiffConfig): string {
  const { primary } = config;
  const reads = planBound(primary.runs);
  const sides = [primary, config.candidate, ...(config.secondary ? [config.secondary] : [])];
  const writes = writesAllowed(sides) ? writePlanBound(config.diff.minComparisons) : 0;
  const asks = 3 * (reads + writes);
  const total = 2 * LEARNING_REQUESTS + asks;
  const paced = primary.maxRps === undefined ? '' : `, at MAX_RPS=${primary.maxRps} about ${Math.ceil(total / primary.maxRps)} s`;
  const asked = config.secondary ? 'the primary, the secondary and the candidate once each' : 'the primary twice and the candidate once';
  const plan = writes === 0 ? `at most ${reads} reads` : `at most ${reads} reads and ${writes} mark-unread writes`;
  const what =
    writes === 0
      ? 'Reads only; nothing sent.'
      : "Writes go only to each side's GROUP_GUID (CANDIDATE_GROUP_GUID, SECONDARY_GROUP_GUID); nothing sent.";
  return `Dry run: diff would send about ${LEARNING_REQUESTS} requests to each side to learn it, then at most ${asks} (the plan of ${plan} for CONFORMANCE_RUNS=${primary.runs}, asked of ${asked}): at most ${total} in all${paced}. ${what}`;
}

export async function runDiffCommand(args: readonly string[]): Promise<number> {
  if (args.length > 0) {
    process.stderr.write(`diff takes no arguments (got ${errorLine(args.join(' '))}); it is configured by the environment\n`);
    return EXIT.error;
  }
  const env = environment();
  let config;
  try {
    config = loadDiffConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${configErrorLine(error)}\n`);
    return EXIT.error;
  }
  const redact = redactorFor(env);
  if (config.primary.dryRun) {
    process.stdout.write(`${dryRunLine(config)}\n`);
    return EXIT.conformant;
  }
  // MAX_RPS holds for the two sides together: both are asked by one pacer.
  const pacer = new Pacer(config.primary.maxRps);
  const wires: Wire[] = [];
  const sides = {
    primary: diffSide(config.primary, pacer, wires),
    candidate: diffSide(config.candidate, pacer, wires),
    secondary: config.secondary && diffSide(config.secondary, pacer, wires),
  };
  let asked;
  try {
    asked = await askBothSides(sides, config.primary.seed, config.primary.runs, config.diff.minComparisons);
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    process.stderr.write(`${redact(`Diff: INCONCLUSIVE: ${errorLine(error)}`)}\n`);
    return EXIT.inconclusive;
  } finally {
    await Promise.all(wires.map((wire) => wire.close()));
  }
  const outcome = judgeDiff(asked, diffJudging(config));
  const results = diffResults(outcome);
  mkdirSync(config.reportDir, { recursive: true });
  const write = (name: string, text: string) => writeFileSync(join(config.reportDir, name), redact(text));
  write(
    'results.json',
    `${JSON.stringify({ kind: 'diff', seed: config.primary.seed, verdict: diffVerdict(outcome.exitCode), exitCode: outcome.exitCode, diff: results }, null, 2)}\n`,
  );
  write('index.html', renderDiffHtml(results));
  write('junit.xml', renderDiffJunit(results));
  process.stdout.write(
    `${redact([...diffSummaryLines(results), `Reports: ${config.reportDir}/ (seed ${config.primary.seed})`].join('\n'))}\n`,
  );
  return outcome.exitCode;
}
