// `npm run conformance -- har FILE...`: judges the exchanges of the three operations recorded in
// HAR files (har-reader.ts) and writes the usual reports into REPORT_DIR. Exit codes: 1
// violations found, 0 none in the exchanges judged, 3 no exchange of the three operations in the
// files, 2 a file that is not a HAR or a bad configuration (one line, no stack trace).
import { commandLineHere } from '../core/results/replay-command.ts';
import { shellWord } from '../core/results/shell-quote.ts';
import { resolve } from 'node:path';
import {
  ConfigError,
  DEFAULT_REPORT_DIRS,
  environment,
  loadPassiveConfig,
  reportDirectory,
  variableSource,
  type Env,
  type SuiteConfig,
} from '../core/run/config.ts';
import { createPassiveJudge } from './judge.ts';
import { HarError, readHar } from './har-reader.ts';
import { writePassiveReports } from './passive-report.ts';
import { errorLine } from '../core/results/visible.ts';

const usage = () =>
  `Usage: ${commandLineHere()} har FILE.har [FILE.har ...]   (reports go to REPORT_DIR, ${DEFAULT_REPORT_DIRS.passive}/ by default)`;

export async function runHar(files: string[]): Promise<number> {
  if (files.length === 0 || files.some((file) => file.startsWith('--'))) {
    process.stderr.write(`${usage()}\n`);
    return 2;
  }
  let config: SuiteConfig;
  let dir: string;
  let env: Env;
  try {
    env = environment();
    config = loadPassiveConfig(env);
    dir = resolve(reportDirectory(env, 'passive'));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const bases = config.target.kind === 'remote' ? { callsBaseUrl: config.callsBaseUrl, chatBaseUrl: config.chatBaseUrl } : {};
  const judge = createPassiveJudge({
    bases,
    profile: config.profile,
    settleSeconds: config.settleSeconds,
    maxAnswerAgeSeconds: config.maxAnswerAgeSeconds,
  });
  let malformed = 0;
  try {
    for (const file of files) malformed += (await readHar(file, judge)).malformed;
  } catch (error) {
    process.stderr.write(
      `har: ${error instanceof HarError ? error.message : `could not be read: ${(error as Error).message?.split('\n')[0] ?? String(error)}`}\n`,
    );
    return 2;
  }
  try {
    const result = judge.finish();
    if (malformed > 0) result.ignored['not a HAR entry'] = malformed;
    const otherHost = result.ignored['other host'] ?? 0;
    const written = writePassiveReports(result, {
      dir,
      env,
      config,
      ...(otherHost > 0 && { notes: [hostsJudged(config, otherHost)] }),
      sources: files,
      rerun: `${commandLineHere()} har ${files.map((file) => shellWord(file)).join(' ')}`,
      ...(config.expectations && { expectations: config.expectations }),
    });
    process.stdout.write(written.console);
    return written.exitCode;
  } catch (error) {
    // An error of the suite's own, whatever the recording held: one line and the exit code of a
    // suite error, never a stack trace, nor 1, which says the traffic broke a requirement.
    process.stderr.write(`har: no report: the judge failed: ${errorLine(error)}\n`);
    return 2;
  }
}

/**
 * Why entries of other hosts were left alone: the addresses judged, the variables that configured
 * them and where those were set (a .env left pointing at a deployment is the usual cause), and how
 * to judge every host: the har command has no option for it, an empty value in the environment does.
 */
function hostsJudged(config: SuiteConfig, otherHost: number): string {
  const variables =
    config.target.kind === 'remote' && config.target.source === 'app-id' ? ['APP_ID', 'REGION'] : ['CALLS_BASE_URL', 'CHAT_BASE_URL'];
  const sources = [...new Set(variables.map((name) => variableSource(name)))];
  const from = `${variables.join(' and ')}, set in ${sources.join(' and ')}`;
  const empty = variables.map((name) => `${name}=`).join(' ');
  return `${otherHost} entries of another host were left alone: only entries under ${config.callsBaseUrl} and ${config.chatBaseUrl} are judged, from ${from}. To judge every host, run the command with ${empty} before it (an empty value in the environment wins over .env).`;
}
