// `npm run conformance -- har FILE...`, on its thread (har-command.ts): judges the exchanges of the three operations recorded in
// HAR files (har-reader.ts), Envoy tap traces, JSON Lines of exchanges or JSON access logs
// (capture-reader.ts, access-log.ts), and writes the usual reports into REPORT_DIR. Exit codes: 1
// violations found, 0 none in the exchanges judged, 3 no exchange of the three operations in the
// files, 2 a file that cannot be read as traffic or a bad configuration (one line, no stack trace).
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
import { HarError } from './har-reader.ts';
import { readCapture } from './capture-reader.ts';
import { accessLogFields, DEFAULT_ACCESS_LOG_FIELDS, type AccessLogFields } from './access-log.ts';
import type { ExchangeSink } from './recorded-exchange.ts';
import { parseArgs } from 'node:util';
import { writePassiveReports } from './passive-report.ts';
import { errorLine, visibleLine } from '../core/results/visible.ts';

const usage = () =>
  `Usage: ${commandLineHere()} har [--access-log-fields PART=FIELD,...] FILE [FILE ...]   (HAR 1.2 files, Envoy tap traces, JSON Lines of exchanges or JSON access logs; reports go to REPORT_DIR, ${DEFAULT_REPORT_DIRS.passive}/ by default)`;

/** The files to read and the access log's field names; a line to print when the arguments are wrong. */
function harArguments(args: string[]): { files: string[]; accessLog: AccessLogFields; given: string[] } | string {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { 'access-log-fields': { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (error) {
    return `${errorLine(error)}\n${usage()}`;
  }
  const files = parsed.positionals;
  if (files.length === 0) return usage();
  const spec = parsed.values['access-log-fields'];
  const accessLog = spec === undefined ? DEFAULT_ACCESS_LOG_FIELDS : accessLogFields(spec);
  if (typeof accessLog === 'string') return accessLog;
  return { files, accessLog, given: spec === undefined ? [] : ['--access-log-fields', spec] };
}

/** Every file into the judge, in order; what was left alone and cut short. Throws HarError (one line) on a file it cannot read. */
async function readAll(files: readonly string[], judge: ExchangeSink, accessLog: AccessLogFields) {
  let malformed = 0;
  let truncated = 0;
  for (const file of files) {
    const read = await readCapture(file, judge, accessLog);
    malformed += read.malformed;
    truncated += read.truncated;
  }
  return { malformed, truncated };
}

/** What the har command's thread does (har-thread.ts): the files judged, the reports written; the exit code. */
export async function judgeHar(args: string[]): Promise<number> {
  const parsedArgs = harArguments(args);
  if (typeof parsedArgs === 'string') {
    process.stderr.write(`${parsedArgs}\n`);
    return 2;
  }
  const { files, accessLog, given } = parsedArgs;
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
  let malformed: number;
  let truncated: number;
  try {
    ({ malformed, truncated } = await readAll(files, judge, accessLog));
  } catch (error) {
    // A file's name and the parser's complaint may hold characters a terminal obeys.
    process.stderr.write(`har: ${error instanceof HarError ? visibleLine(error.message) : `could not be read: ${errorLine(error)}`}\n`);
    return 2;
  }
  try {
    const result = judge.finish();
    if (malformed > 0) result.ignored['not an exchange (a HAR entry, tap trace or JSON line without a request and a response)'] = malformed;
    const otherHost = result.ignored['other host'] ?? 0;
    const notes = [...(otherHost > 0 ? [hostsJudged(config, otherHost)] : []), ...(truncated > 0 ? [cutShort(truncated)] : [])];
    const written = writePassiveReports(result, {
      dir,
      env,
      config,
      ...(notes.length > 0 && { notes }),
      sources: files,
      rerun: `${commandLineHere()} har ${[...given, ...files].map((word) => shellWord(word)).join(' ')}`,
      ...(config.expectations && { expectations: config.expectations }),
      ...(config.history && { history: config.history }),
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

/** Why some exchanges were judged without their bodies: the capture kept only their start. */
const cutShort = (count: number): string =>
  `${count} exchange(s) had a body the capture cut short (an Envoy tap keeps 1 KiB each way unless its max_buffered_rx_bytes and max_buffered_tx_bytes are raised): they were judged without their bodies, and what only a body shows was not judged from them.`;
