// `npm run conformance -- proxy --target URL [--port N] [--har OUT.har]`: the judging proxy
// (passive/proxy/proxy.ts) as a command. A team points its app, SDK or tests at the address it
// prints; on SIGINT or SIGTERM it stops accepting, lets the exchanges in flight finish, and writes the
// passive reports (the HAR mode's wording: VIOLATIONS FOUND, exit 1, or NO VIOLATIONS IN N
// EXCHANGES, exit 0) and, when asked, a HAR of what it saw with its secrets redacted. A second signal
// cuts the exchanges still in flight at once. The traffic passes on a thread of its own
// (proxy-thread.ts), whose young generation is kept small; the judge and the HAR writer run on a
// thread of their own beside it (proxy-judging-thread.ts), so that judging never holds up the traffic.
// The process's main thread only takes the signals and hands them on.
import { isExchangeLinesFile } from './proxy-har.ts';
import { visibleLine } from '../../core/results/visible.ts';
import { commandLineHere } from '../../core/results/replay-command.ts';
import { shellWord } from '../../core/results/shell-quote.ts';
import { dirname, resolve } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import type { ParseArgsConfig } from 'node:util';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../threads.ts';
import { ConfigError, environment, loadPassiveConfig, reportDirectory } from '../../core/run/config.ts';
import { takeOverReportFolder } from '../../reports/report-folder.ts';
import { startJudgingProxy, type JudgingProxy, type PassedExchange, type ProxyCounts } from './proxy.ts';
import { MAX_CAPTURED_BODY_BYTES } from './proxy-capture.ts';
import { ConnectionSampler, describeSampling, type SamplingCounts } from './proxy-sampling.ts';
import { DEFAULT_UPSTREAM_TIMEOUTS, MAX_TIMEOUT_MS, WAITS, timeoutOf, type UpstreamTimeouts, type UpstreamWait } from './proxy-deadline.ts';
import {
  bodyBytes,
  FINISH_JUDGING_MS,
  withoutBodyTexts,
  type FromJudgingThread,
  type JudgingThreadData,
  type ProxyRunSettings,
  type ToJudgingThread,
} from './proxy-judging-thread-messages.ts';
import { readOptions } from '../../core/run/read-options.ts';
import { DEFAULT_REPORT_EVERY_MINUTES, MAX_REPORT_EVERY_MINUTES, REPORT_SIGNAL } from './proxy-interim.ts';
import { ownFile } from '../../core/run/package-paths.ts';

const proxyUsage = (): string =>
  `Usage: ${commandLineHere()} proxy --target URL [--chat-target URL] [--port N] [--har OUT.har] [--report-every-minutes N]   (port 0: any free port; default 8089)`;
const DEFAULT_PROXY_PORT = 8089;

const EXIT_USAGE = 2;

export interface ProxyArguments {
  target: URL;
  /** The chat service, when mark-unread goes elsewhere than List Calls and Get Call. */
  chatTarget?: URL;
  port: number;
  /** Minutes between two interim reports; 0: only on REPORT_SIGNAL (and the final one at stop). */
  reportEveryMinutes: number;
  har?: string;
  timeouts: UpstreamTimeouts;
}

/** The options, as node:util's parseArgs reads them; every one takes a value (the last of a repeated one wins). */
const OPTIONS = {
  target: { type: 'string' },
  'chat-target': { type: 'string' },
  port: { type: 'string' },
  'report-every-minutes': { type: 'string' },
  har: { type: 'string' },
  'connect-timeout-ms': { type: 'string' },
  'first-byte-timeout-ms': { type: 'string' },
  'idle-timeout-ms': { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** The command's options as typed (`--target`, …): usage.ts's help for the proxy names each of them. */
export const PROXY_OPTIONS = Object.keys(OPTIONS).map((option) => `--${option}`);

const TIMEOUT_OPTIONS: ReadonlyArray<[keyof typeof OPTIONS, keyof UpstreamTimeouts]> = [
  ['connect-timeout-ms', 'connectMs'],
  ['first-byte-timeout-ms', 'firstByteMs'],
  ['idle-timeout-ms', 'idleMs'],
];

/** The arguments, or the one line that says which option is wrong. */
export function parseProxyArguments(argv: readonly string[]): ProxyArguments | string {
  // Read as the other commands read theirs (read-options.ts): strict, each refusal one line naming the word.
  const read = readOptions({ args: [...argv], options: OPTIONS, strict: true });
  if (read.refusal !== undefined) return read.refusal;
  const values = read.parsed.values;
  if (values.target === undefined) return '--target is required: the base URL of the API to forward to (http:// or https://)';
  const target = targetOf('--target', values.target);
  if (typeof target === 'string') return target;
  const chatTarget = values['chat-target'] === undefined ? undefined : targetOf('--chat-target', values['chat-target']);
  if (typeof chatTarget === 'string') return chatTarget;
  const rawEvery = values['report-every-minutes'] ?? String(DEFAULT_REPORT_EVERY_MINUTES);
  // Fractions too (0.5: every 30 s); at most a week, past which a timer of Node's would overflow.
  if (
    !/^\d{1,5}(\.\d{1,3})?$/.test(rawEvery) ||
    Number(rawEvery) > MAX_REPORT_EVERY_MINUTES ||
    (Number(rawEvery) > 0 && Number(rawEvery) < 0.01)
  )
    return `--report-every-minutes must be a number of minutes from 0.01 to ${MAX_REPORT_EVERY_MINUTES}, or 0 for reports only on ${REPORT_SIGNAL} and at stop, not ${JSON.stringify(rawEvery)}`;
  const rawPort = values.port ?? String(DEFAULT_PROXY_PORT);
  if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) > 65_535)
    return `--port must be a whole number from 0 to 65535 (0: any free port), not ${JSON.stringify(rawPort)}`;
  const har = values.har;
  if (har !== undefined && !existsSync(dirname(resolve(har))))
    return `--har names a file in a folder that does not exist: ${dirname(resolve(har))}`;
  const timeouts: UpstreamTimeouts = { ...DEFAULT_UPSTREAM_TIMEOUTS };
  for (const [option, field] of TIMEOUT_OPTIONS) {
    const raw = values[option];
    if (raw === undefined) continue;
    // No 0 for "never": a proxy left running for weeks must not wait on a target for ever.
    if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_TIMEOUT_MS)
      return `--${option} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${JSON.stringify(raw)}`;
    timeouts[field] = Number(raw);
  }
  return {
    target,
    ...(chatTarget && { chatTarget }),
    port: Number(rawPort),
    reportEveryMinutes: Number(rawEvery),
    ...(har !== undefined && { har: resolve(har) }),
    timeouts,
  };
}

/** A target option's URL, or the one line that says what is wrong with it. */
function targetOf(option: string, raw: string): URL | string {
  let target: URL;
  try {
    target = new URL(raw);
  } catch {
    return `${option} must be an http:// or https:// URL, not ${JSON.stringify(raw)}`;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return `${option} must be an http:// or https:// URL, not ${JSON.stringify(raw)}`;
  if (target.username !== '' || target.password !== '') return `${option} must not carry credentials: the clients send their own`;
  return target;
}

const { name, version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};
/** The HAR's creator: this project, by its package name and version. */
const CREATOR = { name: `${name} judging proxy`, version };

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** `1 on the connect timeout (10000 ms, --connect-timeout-ms), 2 on the first-byte timeout (…)`: the waits that ran out, each with its bound. */
function describeTimeouts(counts: ProxyCounts, timeouts: UpstreamTimeouts): string {
  return (Object.keys(counts.timeouts) as UpstreamWait[])
    .filter((wait) => counts.timeouts[wait] > 0)
    .map((wait) => `${counts.timeouts[wait]} on the ${WAITS[wait].name} (${timeoutOf(timeouts, wait)} ms, ${WAITS[wait].option})`)
    .join(', ');
}

/** Requests the target did not answer in time, all waits together. */
const timedOut = (counts: ProxyCounts) => Object.values(counts.timeouts).reduce((sum, count) => sum + count, 0);

/** What the proxy itself saw besides the exchanges it judged, in lines for the console and the reports. */
function describeCounts(counts: ProxyCounts, timeouts: UpstreamTimeouts = DEFAULT_UPSTREAM_TIMEOUTS): string[] {
  const lines = [`${plural(counts.exchanges, 'exchange')} passed through the proxy`];
  if (counts.upstreamErrors > 0)
    lines.push(
      `${plural(counts.upstreamErrors, 'request')} the target did not answer whole (502 from the proxy, or an answer cut off), not judged: ${counts.upstreamErrorSamples.join('; ')}`,
    );
  if (timedOut(counts) > 0)
    lines.push(
      `${plural(timedOut(counts), 'request')} the target did not answer in time (504 from the proxy, or an answer cut off once begun), not judged: ${describeTimeouts(counts, timeouts)}; ${counts.timeoutSamples.join('; ')}`,
    );
  if (counts.refused > 0)
    lines.push(
      `${plural(counts.refused, 'request')} refused with a 400, whose request line the proxy would have had to give another meaning, not forwarded: ${counts.refusedSamples.join('; ')}`,
    );
  if (counts.keptAliveClosed > 0)
    lines.push(
      `${plural(counts.keptAliveClosed, 'request')} reached the target as it closed a connection it had kept alive: the client's connection closed likewise, with no answer (a client sends such a request again), not judged`,
    );
  if (counts.clientAborts > 0)
    lines.push(`${plural(counts.clientAborts, 'exchange')} the client gave up on before it had the whole answer, not judged`);
  if (counts.cutAtStop > 0)
    lines.push(`${plural(counts.cutAtStop, 'exchange')} still in flight when the proxy stopped, cut and not judged`);
  if (counts.bodiesTooLarge > 0)
    lines.push(
      `${plural(counts.bodiesTooLarge, 'exchange')} with a body too large to judge (over ${MAX_CAPTURED_BODY_BYTES / 2 ** 20} MiB as it passed, or once decompressed), passed on whole and judged on status and headers alone`,
    );
  if (counts.bodiesNotDecodable > 0)
    lines.push(
      `${plural(counts.bodiesNotDecodable, 'exchange')} with a body that does not decompress as its Content-Encoding says, passed on whole and judged on status and headers alone`,
    );
  if (counts.sinkErrors > 0)
    lines.push(`${plural(counts.sinkErrors, 'exchange')} the judge or the HAR writer failed on (a bug: please report it)`);
  return lines;
}

/** The proxy's own peak resident memory (its judging thread's included), as the kernel counted it. */
const peakMemoryLine = (): string => `peak memory of the proxy: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB resident`;

/**
 * Exchanges, and bytes of their bodies, posted to the judging thread and not yet taken, past which the
 * proxy stops posting (and counts what it did not judge). The sampler (proxy-sampling.ts) judges a
 * share of the connections long before this: it is the last bound on memory, for a burst faster than
 * the sampler's next look.
 */
const MAX_JUDGING_BACKLOG = 2_000;
const MAX_JUDGING_BACKLOG_BYTES = 64 * 2 ** 20;
/** How often the sampler looks at the backlog. */
const SAMPLING_EVERY_MS = 100;

const JUDGING_THREAD = new URL(ownFile('./proxy-judging-thread.ts'), import.meta.url);
const PROXY_THREAD = new URL(ownFile('./proxy-thread.ts'), import.meta.url);

/**
 * The young generation of the thread that passes the traffic. V8 sizes it by the machine's memory
 * (64 MiB on a machine of 24 GiB) and grows it with the rate of garbage, which forwarding makes
 * fast: the proxy's peak memory at 500 connections was some 40 to 90 MiB higher with V8's own.
 * Smaller is not better either: at 500 connections flat out, four alternated runs each, 16 MiB
 * peaked at 342 to 360 MiB (median 346) passing 5,025 to 5,288 answers a second, 8 MiB at 345 to
 * 389 (median 382) passing 4,477 to 4,915, and 4 or 32 MiB higher still.
 */
const PROXY_THREAD_YOUNG_GENERATION_MB = 16;

/**
 * The judging thread's young generation, where each answer is parsed, judged and dropped. Too small,
 * and the answer being judged when it fills is copied out and promoted: at 8 MiB the judge took 1,000
 * List Calls pages a CPU-second, at 24 MiB 1,650 (tests/bench/judge-speed.ts, on a thread with these
 * limits), and at a steady 1,000 a second through the proxy it judged every exchange in more runs, at
 * a peak of 279 to 302 MiB against 289 to 299. V8's own (up to 48 MiB here) measured 272 to 277 MiB
 * flat out at 10 connections where 8 MiB measured 243 to 248. It never ends the thread: only the old
 * generation's limit does.
 */
export const JUDGING_THREAD_LIMITS = { maxYoungGenerationSizeMb: 24 };

/** The judging thread, started and ready; or why it could not start. */
function startJudgingThread(data: JudgingThreadData): Promise<Worker> {
  const worker = startThread(JUDGING_THREAD, { workerData: data, resourceLimits: JUDGING_THREAD_LIMITS });
  return new Promise((resolveReady, reject) => {
    const onMessage = (message: FromJudgingThread) => {
      if (message.kind === 'ready') resolveReady(worker);
      if (message.kind === 'failed') reject(new Error(message.message));
      worker.off('message', onMessage);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

/** What the proxy's thread starts with: the command's arguments, and what the command read as it started. */
export interface ProxyThreadData {
  argv: string[];
  settings: ProxyRunSettings;
}

/** What the main thread tells the proxy's thread: a signal it took (the first stops, the second hurries), or a report asked for. */
export type ToProxyThread = { kind: 'signal'; signal: NodeJS.Signals } | { kind: 'report' };
/** What the proxy's thread answers, once: its exit code. */
export type FromProxyThread = { kind: 'exit'; code: number };

/** How the proxy's thread hears of the signals the process takes. */
export interface ProxyControl {
  /** The next SIGINT or SIGTERM the process takes. */
  nextSignal(): Promise<NodeJS.Signals>;
  /** Called on each REPORT_SIGNAL. */
  onReport(ask: () => void): void;
}

/**
 * `proxy`: the arguments and the configuration checked here, then the proxy run on a thread of its
 * own, which this thread hands the signals to; its exit code.
 */
export async function runProxy(argv: readonly string[]): Promise<number> {
  // Taken at once, and for as long as the process lives: Node starts its inspector (a debugger port
  // anyone on the machine could attach to, and read the keys passing) on a SIGUSR1 nobody listens to.
  let askForReport = () => {};
  process.on(REPORT_SIGNAL, () => askForReport());
  const parsed = parseProxyArguments(argv);
  if (typeof parsed === 'string') {
    process.stderr.write(`proxy: ${parsed}\n${proxyUsage()}\n`);
    return EXIT_USAGE;
  }
  let settings: ProxyRunSettings;
  try {
    // A bad configuration (profile, known failures) ends it before it listens, in one line.
    const env = environment();
    settings = { env, config: loadPassiveConfig(env) };
    // Said as it starts, not at its first report minutes later: the folder it will write to holds another command's report.
    const replaced = takeOverReportFolder(resolve(reportDirectory(env, 'passive')), 'passive');
    if (replaced !== undefined) process.stdout.write(`${replaced}\n`);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const thread = startThread(PROXY_THREAD, {
    workerData: { argv: [...argv], settings } satisfies ProxyThreadData,
    resourceLimits: { maxYoungGenerationSizeMb: PROXY_THREAD_YOUNG_GENERATION_MB },
  });
  const tell = (message: ToProxyThread) => thread.postMessage(message);
  askForReport = () => tell({ kind: 'report' });
  const onSignal = (signal: NodeJS.Signals) => tell({ kind: 'signal', signal });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let code: number = EXIT_USAGE;
  thread.on('message', (message: FromProxyThread) => {
    if (message.kind === 'exit') code = message.code;
  });
  thread.on('error', (error) =>
    process.stderr.write(`proxy: stopped by an error of its own (a bug: please report it): ${visibleLine(error.message)}\n`),
  );
  // Once the thread has ended, its output has all been written here.
  await new Promise((resolveExit) => thread.once('exit', resolveExit));
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  askForReport = () => {};
  return code;
}

/** The proxy, on its own thread (proxy-thread.ts): it listens, passes the traffic, and at a signal writes the reports; its exit code. */
export async function serveProxy(parsed: ProxyArguments, control: ProxyControl, settings: ProxyRunSettings): Promise<number> {
  let askForReport = () => {};
  control.onReport(() => askForReport());
  const cutJudging = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  let judge: JudgeLink;
  try {
    judge = new JudgeLink(await startJudgingThread(judgingThreadData(parsed, cutJudging, settings)));
  } catch (error) {
    process.stderr.write(`proxy: the judge could not start: ${visibleLine((error as Error).message)}\n`);
    return EXIT_USAGE;
  }
  // When the traffic outruns the judge, whole client connections are judged, a share chosen by rule and reported.
  const sampler = new ConnectionSampler();
  const sampling = setInterval(() => sampler.adjust(judge.backlog(), judge.backlogBytes()), SAMPLING_EVERY_MS);
  sampling.unref();
  let proxy: JudgingProxy;
  try {
    proxy = await startProxyFor(parsed, judge, sampler);
  } catch (error) {
    clearInterval(sampling);
    await judge.thread.terminate();
    process.stderr.write(`proxy: --port ${parsed.port} cannot be listened on: ${(error as Error).message}\n${proxyUsage()}\n`);
    return EXIT_USAGE;
  }
  announceListening(parsed, proxy);
  askForReport = () => judge.askForReport(proxy, sampler);
  const timer = parsed.reportEveryMinutes > 0 ? setInterval(askForReport, parsed.reportEveryMinutes * 60_000) : undefined;

  const signal = await control.nextSignal();
  // From now on the final report is on its way.
  clearInterval(timer);
  askForReport = () => {};
  const counts = await stopAt(signal, proxy, control, cutJudging);
  // The judge catches up on what it has not reached for FINISH_JUDGING_MS at most; the rest is counted.
  const cutTimer = setTimeout(() => cutJudge(cutJudging), FINISH_JUDGING_MS);
  cutTimer.unref();
  clearInterval(sampling);
  const sampled = writeStopSummary(counts, parsed.timeouts, sampler, judge.behind);
  return writeFinalReport(judge, counts, sampler, sampled, parsed.har);
}

/** What the judging thread needs to judge and report: where the traffic goes, and the command that judges it again. */
function judgingThreadData(parsed: ProxyArguments, cut: SharedArrayBuffer, settings: ProxyRunSettings): JudgingThreadData {
  const rerun =
    parsed.har === undefined
      ? `${commandLineHere()} proxy --target ${shellWord(parsed.target.href)} --har session.har (to keep the traffic), then ${commandLineHere()} har session.har`
      : `${commandLineHere()} har ${shellWord(parsed.har)}`;
  return {
    settings,
    cut,
    sources: [`proxy → ${parsed.target.origin}`, ...(parsed.chatTarget ? [`proxy → ${parsed.chatTarget.origin} (chat)`] : [])],
    creator: CREATOR,
    rerun,
    ...(parsed.har !== undefined && { har: parsed.har }),
  };
}

/**
 * The judging thread as the proxy's side sees it: what was posted to it and what it took, the
 * exchanges passed on unjudged, its failure, and whether an interim report is being written.
 * The judging thread takes the exchanges; a failure of its own stops the judging, never the traffic.
 */
class JudgeLink {
  private posted = 0;
  private taken = 0;
  private postedBytes = 0;
  private takenBytes = 0;
  /** Exchanges passed on unjudged because the backlog was at its bound or the judge had failed. */
  behind = 0;
  failure: string | undefined;
  private reporting = false;

  constructor(readonly thread: Worker) {
    thread.on('message', (message: FromJudgingThread) => this.heard(message));
    thread.on('error', (error) => {
      this.failure ??= error.message;
      process.stderr.write(`judging proxy: the judge failed, the traffic still passes: ${visibleLine(error.message)}\n`);
    });
  }

  backlog(): number {
    return this.posted - this.taken;
  }

  backlogBytes(): number {
    return this.postedBytes - this.takenBytes;
  }

  private heard(message: FromJudgingThread): void {
    if (message.kind === 'taken') ({ count: this.taken, bytes: this.takenBytes } = message);
    if (message.kind === 'failed') this.failure ??= message.message;
    if (message.kind === 'reported') {
      this.reporting = false;
      process.stdout.write(`interim report, as of ${message.asOf}: ${message.verdict} so far: ${message.path}\n`);
    }
    if (message.kind === 'report-failed') {
      this.reporting = false;
      process.stderr.write(
        `judging proxy: the interim report could not be written, the traffic still passes: ${visibleLine(message.message)}\n`,
      );
    }
  }

  /** Hands an exchange to the judge, unless it has failed or its backlog is at its bound. */
  add(exchange: PassedExchange): void {
    if (this.failure !== undefined || this.backlog() >= MAX_JUDGING_BACKLOG || this.backlogBytes() >= MAX_JUDGING_BACKLOG_BYTES) {
      this.behind += 1;
      return;
    }
    this.posted += 1;
    this.postedBytes += bodyBytes(exchange);
    this.thread.postMessage({ kind: 'exchange', exchange: withoutBodyTexts(exchange) } satisfies ToJudgingThread, transferable(exchange));
  }

  /** An interim report is asked of the judging thread, which writes it between two exchanges; one at a time. */
  askForReport(proxy: JudgingProxy, sampler: ConnectionSampler): void {
    if (this.reporting || this.failure !== undefined) return;
    this.reporting = true;
    const counts = proxy.counts();
    this.thread.postMessage({
      kind: 'report',
      notJudged: [...notJudgedByTheProxy(counts), ...notJudgedBehind(sampler.snapshot(), this.behind)],
      sampling: describeSampling(sampler.snapshot()),
      credentialHeaders: [...counts.credentialHeaders],
    } satisfies ToJudgingThread);
  }

  /** Asks for the final report; the judging thread's answer: done, or failed. */
  finish(counts: ProxyCounts, sampler: ConnectionSampler, sampled: string | undefined): Promise<FromJudgingThread> {
    return new Promise<FromJudgingThread>((resolveDone) => {
      this.thread.on(
        'message',
        (message: FromJudgingThread) => (message.kind === 'done' || message.kind === 'failed') && resolveDone(message),
      );
      this.thread.once('error', (error) => resolveDone({ kind: 'failed', message: error.message }));
      this.thread.postMessage({
        kind: 'finish',
        notJudged: [...notJudgedByTheProxy(counts), ...notJudgedBehind(sampler.snapshot(), this.behind)],
        sampling: sampled,
        credentialHeaders: counts.credentialHeaders,
      } satisfies ToJudgingThread);
    });
  }
}

function startProxyFor(parsed: ProxyArguments, judge: JudgeLink, sampler: ConnectionSampler): Promise<JudgingProxy> {
  return startJudgingProxy({
    target: parsed.target,
    ...(parsed.chatTarget && { chatTarget: parsed.chatTarget }),
    port: parsed.port,
    sinks: [{ add: (exchange: PassedExchange) => judge.add(exchange) }],
    timeouts: parsed.timeouts,
    sampler,
    // The judging thread rebuilds the texts from the bytes (withBodyTexts): the proxy's thread does not make them.
    bodyTexts: false,
  });
}

/** Where the proxy listens, where it forwards, where to point a client, and how to ask for reports. */
function announceListening(parsed: ProxyArguments, proxy: JudgingProxy): void {
  const forwarding = parsed.chatTarget
    ? `${parsed.target.origin} (List Calls, Get Call: …/calls) and ${parsed.chatTarget.origin} (mark-unread, and every other path)`
    : parsed.target.origin;
  process.stdout.write(`judging proxy listening on ${proxy.address}, forwarding to ${forwarding}\n`);
  const chatBase = parsed.chatTarget ? ` for the calls service, and at ${proxy.chatBase} for the chat service` : '';
  process.stdout.write(
    `Point your app, SDK or tests at ${proxy.base} as their base URL${chatBase}. Stop with Ctrl-C (SIGINT) or SIGTERM to write the report.\n`,
  );
  const every = parsed.reportEveryMinutes > 0 ? `every ${parsed.reportEveryMinutes} min and ` : '';
  process.stdout.write(`Interim reports: ${every}on ${REPORT_SIGNAL} (kill -USR1 ${process.pid}).\n`);
}

/** Stops the proxy at the first signal, letting the exchanges in flight finish; a second signal cuts them and the judging. */
async function stopAt(
  signal: NodeJS.Signals,
  proxy: JudgingProxy,
  control: ProxyControl,
  cutJudging: SharedArrayBuffer,
): Promise<ProxyCounts> {
  const inFlight = proxy.inFlight();
  process.stdout.write(
    `${signal}: the proxy stops accepting${inFlight > 0 ? ` and waits for ${inFlight} exchange${inFlight === 1 ? '' : 's'} in flight (a second signal cuts them)` : ''}\n`,
  );
  void control.nextSignal().then(() => {
    proxy.hurry();
    cutJudge(cutJudging);
  });
  return proxy.stop();
}

/** Tells the judging thread to stop judging and count what it has not reached. */
function cutJudge(cutJudging: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(cutJudging), 0, 1);
}

/** The proxy's counts, the sampling and the exchanges the judge fell behind on; the sampling line, for the report. */
function writeStopSummary(counts: ProxyCounts, timeouts: UpstreamTimeouts, sampler: ConnectionSampler, behind: number): string | undefined {
  for (const line of describeCounts(counts, timeouts)) process.stdout.write(`${line}\n`);
  const sampled = describeSampling(sampler.snapshot());
  if (sampled !== undefined) process.stdout.write(`${sampled}\n`);
  if (behind > 0)
    process.stdout.write(
      `${behind} exchange${behind === 1 ? '' : 's'} passed but not judged: the judge fell behind the traffic faster than the sampler could follow, or failed\n`,
    );
  return sampled;
}

/** The judging thread's final report, the HAR it wrote and the proxy's peak memory; the run's exit code. */
async function writeFinalReport(
  judge: JudgeLink,
  counts: ProxyCounts,
  sampler: ConnectionSampler,
  sampled: string | undefined,
  har: string | undefined,
): Promise<number> {
  if (judge.failure !== undefined) {
    process.stderr.write(`proxy: no report: the judge failed: ${visibleLine(judge.failure)}\n`);
    await judge.thread.terminate();
    return EXIT_USAGE;
  }
  const outcome = await judge.finish(counts, sampler, sampled);
  if (outcome.kind !== 'done') {
    process.stderr.write(`proxy: no report: the judge failed: ${visibleLine(outcome.kind === 'failed' ? outcome.message : 'no answer')}\n`);
    return EXIT_USAGE;
  }
  if (outcome.harEntries !== undefined)
    process.stdout.write(
      `${isExchangeLinesFile(har!) ? 'JSON Lines' : 'HAR'} of ${outcome.harEntries} exchange${outcome.harEntries === 1 ? '' : 's'} (secrets redacted): ${har}\n`,
    );
  process.stdout.write(`${peakMemoryLine()}\n`);
  process.stdout.write(outcome.console);
  return outcome.exitCode;
}

/**
 * The body buffers that can move to the judging thread instead of being copied: those that own their
 * whole memory. A small Buffer may be a slice of Node's shared pool, whose moving would take the
 * other slices' bytes with it; it is copied.
 */
function transferable(exchange: PassedExchange): ArrayBuffer[] {
  const owned = [exchange.passed.requestBody, exchange.passed.responseBody].filter(
    (body): body is Buffer => body !== undefined && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength,
  );
  return [...new Set(owned.map((body) => body.buffer as ArrayBuffer))];
}

/** The exchanges passed on unjudged because the judge was behind: sampled out by rule, and any the last bound held back. */
function notJudgedBehind(sampling: SamplingCounts, behind: number): Array<[string, number]> {
  return [
    [
      `exchanges sampled out: the judge fell behind, so whole client connections were judged (a share by rule, see the sampling line)`,
      sampling.sampledOut,
    ],
    ['exchanges not judged: the judge fell behind the traffic', behind],
  ];
}

function notJudgedByTheProxy(counts: ProxyCounts): Array<[string, number]> {
  return [
    ['requests the target did not answer whole (502 from the proxy, or an answer cut off)', counts.upstreamErrors],
    ['requests the target did not answer in time (504 from the proxy, or an answer cut off once begun)', timedOut(counts)],
    ['requests refused with a 400 (a request line the proxy would have had to give another meaning)', counts.refused],
    [
      "requests that reached the target as it closed a kept-alive connection (the client's closed likewise, no answer)",
      counts.keptAliveClosed,
    ],
    ['exchanges the client gave up on before it had the whole answer', counts.clientAborts],
    ['exchanges cut when the proxy stopped', counts.cutAtStop],
  ];
}
