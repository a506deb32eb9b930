// `npm run conformance -- merge PROXY_REPORT_DIR...`: the reports of several judging proxies (run
// behind one load balancer, each seeing part of the traffic) merged into one passive report, in
// REPORT_DIR, with the verdict one proxy that saw all the traffic would give: each report folder's
// passive-state.json (passive/judge-state.ts) carries what the comparisons across exchanges
// need, and the merge runs them across the proxies. Exit codes as the HAR mode's: 1 violations found,
// 0 none, 3 nothing judged, 2 a folder without a proxy's report, a report given twice, or a bad
// configuration (one line).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { commandLineHere } from '../core/results/replay-command.ts';
import { shellWord } from '../core/results/shell-quote.ts';
import { ConfigError, environment, loadPassiveConfig, reportDirectory, type Env, type SuiteConfig } from '../core/run/config.ts';
import { MergeError, mergeStates, resultOfState, STATE_FILE, STATE_FORMAT, type PassiveState } from './judge-state.ts';
import { writePassiveReports } from './passive-report.ts';

const usage = () => `Usage: ${commandLineHere()} merge PROXY_REPORT_DIR [PROXY_REPORT_DIR ...]   (the merged report goes to REPORT_DIR)`;

/** The state file a folder (or the path itself) names, when it is a judging proxy's report. */
export function passiveStateIn(path: string): string | undefined {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, STATE_FILE) : path;
  return existsSync(file) && statSync(file).isFile() && file.endsWith(STATE_FILE) ? file : undefined;
}

function readState(path: string): PassiveState {
  const file = passiveStateIn(path);
  if (file === undefined) throw new MergeError(`${path} holds no judging proxy's report (${STATE_FILE})`);
  let state: PassiveState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as PassiveState;
  } catch (error) {
    throw new MergeError(`${file} is not a whole report: ${(error as Error).message.split('\n')[0]}`);
  }
  if (state?.format !== STATE_FORMAT)
    throw new MergeError(`${file} is not a report this version can merge (format ${JSON.stringify(state?.format)})`);
  return state;
}

export function runPassiveMerge(paths: readonly string[]): number {
  if (paths.length === 0 || paths.some((path) => path.startsWith('--'))) {
    process.stderr.write(`${usage()}\n`);
    return 2;
  }
  let dir: string;
  let env: Env;
  let config: SuiteConfig;
  try {
    env = environment();
    config = loadPassiveConfig(env);
    dir = resolve(reportDirectory(env, 'passive'));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    return 2;
  }
  let merged: ReturnType<typeof mergeStates>;
  try {
    merged = mergeStates(paths.map(readState));
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    process.stderr.write(`merge: ${error.message}\n`);
    return 2;
  }
  const { state, notes } = merged;
  const sources = state.runs.flatMap((run) => run.sources);
  const written = writePassiveReports(resultOfState(state), {
    dir,
    sources,
    rerun: `${commandLineHere()} merge ${paths.map((path) => shellWord(path)).join(' ')}`,
    env,
    config,
    stage: state.final ? 'final' : 'interim',
    notes: [`Merged from the reports of ${state.runs.length} judging proxies, compared across them.`, ...notes],
    state,
    ...(config.expectations && { expectations: config.expectations }),
  });
  process.stdout.write(written.console);
  return written.exitCode;
}
