// Global setup: a request to the calls service before any test. A target that cannot be reached
// at all (refused, unknown host, no answer within the request timeout) ends the run here with one
// line and an INCONCLUSIVE verdict, instead of a hundred tests each failing on the same network error;
// a target that says it does not know API_KEY (or RESTRICTED_API_KEY, ACTING_UID, GROUP_GUID, MESSAGE_ID: preflight-checks.ts)
// ends it with a configuration error naming the variable, exit 2, instead of a NON-CONFORMANT verdict.
// With more than one worker, or under MAX_RPS, it also starts the keeper of the run's MAX_IN_FLIGHT
// slots, which the workers share and which paces the run's starts under MAX_RPS
// (transport/shared-in-flight.ts), and it starts learning the target while the workers start
// (learning/learn-in-runner.ts); the teardown it returns stops the keeper.
import type { FullConfig } from '@playwright/test';
import { environment, withEmbeddedAddress, type SuiteConfig } from './config.ts';
import { configOfThisProcess } from './config-of-this-process.ts';
import { RunState } from '../transport/run-state.ts';
import { learnInRunner, runnerLearns } from '../learning/learn-in-runner.ts';
import { Pacer, rateShare } from '../transport/rate-limit.ts';
import { SLOT_KEEPER_VARIABLE, slotKeeperPath, startSlotKeeper, type SlotKeeper } from '../transport/shared-in-flight.ts';
import { tlsProblem } from '../transport/tls-problems.ts';
import { ConfigError, configErrorLine } from './config-error.ts';
import { preflightAsks, refusalOf, type PreflightAsk } from './preflight-checks.ts';
import { baseOf, leaveRequests, type RequestRecord } from '../results/request-log.ts';
import { PREFLIGHT_TEST_CASE, traceWhen } from '../transport/trace-context.ts';

/** More than any error body carries: a larger one is not read, and its code not looked for. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** An error printed as its message alone: the reader needs the cause, not the suite's stack. */
class TargetUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetUnreachable';
    this.stack = `${this.name}: ${message}`;
  }
}

export default async function preflight(runner?: FullConfig): Promise<(() => Promise<void>) | undefined> {
  // The runner's configuration (playwright.config.ts), with the address the embedded reference has since said.
  const config = withEmbeddedAddress(configOfThisProcess(), environment());
  const refusal = runner && tooManyWorkers(config, runner.workers);
  if (refusal) {
    process.stderr.write(`Configuration error: ${refusal}\n`);
    process.exit(2);
  }
  // The whole run's rate, the preflight's request included: a worker started again after a failure
  // asks the same keeper, so no start of the run is paced alone.
  const pacer = config.maxRps === undefined ? undefined : new Pacer(rateShare(config.maxRps, 1, 0));
  const keeper = (runner?.workers ?? 1) > 1 || pacer ? await keepSlots(config.maxInFlight, pacer) : undefined;
  try {
    await reachTarget(config, () => {
      if (keeper) pacer?.counted();
    });
  } catch (error) {
    await keeper?.close();
    // A value the target does not know is the configuration's mistake: one line and exit 2, as for any
    // other, and no report, since nothing was judged (docs/reports.md, Exit codes).
    if (!(error instanceof ConfigError)) throw error;
    RunState.remove();
    process.stderr.write(`${configErrorLine(error)}\n`);
    process.exit(2);
  }
  // Not waited on, here or at the end: the workers start meanwhile and wait on its record
  // (learn-in-runner.ts), and a run stopped while it learns from a slow target ends without it.
  const runState = RunState.fromEnvironment(config.requestBudget);
  if (runner && runnerLearns(runner, runState)) {
    void learnInRunner(config, { runState, slotKeeper: keeper?.path }).catch((error: unknown) => {
      process.stderr.write(
        `Learning the target in the runner ended in an error: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    });
  }
  return keeper && (() => keeper.close());
}

/**
 * The preflight's asks (preflight-checks.ts), one after another: the first says whether the target
 * answers at all, and whether it knows API_KEY; the others are sent only when it answered that one
 * with a success, so that a refusal of theirs is told apart from a target that refuses everything.
 */
export async function reachTarget(config: SuiteConfig, sending: () => void = () => {}): Promise<void> {
  // The embedded reference has just said where it listens, and builds its data meanwhile; waiting
  // for an answer here would only keep the workers from starting alongside.
  if (config.target.kind === 'embedded') return;
  if (config.callsBaseUrl === undefined) throw new TargetUnreachable('The calls service has no address.');
  // A trace of its own, so that a target's logs tell the preflight's requests from the tests'.
  const trace = traceWhen(config.traceHeaders, PREFLIGHT_TEST_CASE);
  for (const [index, listed] of preflightAsks(config).entries()) {
    const ask = trace ? { ...listed, headers: { ...listed.headers, ...trace.headers() } } : listed;
    const runState = RunState.fromEnvironment(config.requestBudget);
    runState.takeRequest(`${ask.method} ${ask.url}`);
    sending();
    let answer: { status: number; text: string | undefined };
    try {
      answer = await sendListed(ask, config.requestTimeoutMs, runState.folder);
    } catch (error) {
      if (index > 0) return;
      throw new TargetUnreachable(`The target cannot be reached: ${ask.method} ${ask.url} failed (${causeOf(error)}). Nothing was judged.`);
    }
    const refusal = refusalOf(ask, answer.status, answer.text);
    if (refusal) throw refusal;
    if (answer.status < 200 || answer.status >= 300) return;
  }
}

/**
 * Sends the ask. A write is listed with the run's requests however it ended, as every write the
 * tests send is (docs/safety.md): the first test to end takes it into its attachment (request-log.ts).
 */
async function sendListed(
  ask: PreflightAsk,
  timeoutMs: number,
  folder: string | undefined,
): Promise<{ status: number; text: string | undefined }> {
  const started = performance.now();
  let status = 0;
  try {
    const answer = await readAnswer(ask, timeoutMs);
    status = answer.status;
    return answer;
  } finally {
    if (ask.method !== 'GET' && folder !== undefined) leaveRequests(folder, [writeRecord(ask, status, performance.now() - started)]);
  }
}

function writeRecord(ask: PreflightAsk, status: number, ms: number): RequestRecord {
  return {
    operation: 'markGroupConversationAsUnread',
    method: ask.method,
    base: baseOf(ask.url),
    url: ask.url,
    status,
    ms: Math.round(ms * 10) / 10,
  };
}

/** An error answer's body is read, up to ERROR_BODY_LIMIT, for its code; a success's is not. */
async function readAnswer(ask: PreflightAsk, timeoutMs: number): Promise<{ status: number; text: string | undefined }> {
  const { method, url, headers, body } = ask;
  const response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  if ((response.status >= 200 && response.status < 300) || response.body === null) {
    await response.body?.cancel();
    return { status: response.status, text: undefined };
  }
  return { status: response.status, text: await errorBody(response.body) };
}

/** The body's text; none when it is larger than ERROR_BODY_LIMIT or ends early: the answer had a status, and the tests judge the rest. */
async function errorBody(body: ReadableStream<Uint8Array>): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size > ERROR_BODY_LIMIT) return undefined;
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The run's slots, and under MAX_RPS its pace, kept here in the runner for its workers. Where the
 * run's state folder is too long a path for a socket, or the socket cannot be made, each worker keeps
 * its static share of both instead: the bounds hold either way.
 */
async function keepSlots(maxInFlight: number, pacer: Pacer | undefined): Promise<SlotKeeper | undefined> {
  // Made here if no one has made it yet: the socket lives in it.
  const folder = RunState.fromEnvironment(undefined).folder;
  const path = folder === undefined ? undefined : slotKeeperPath(folder);
  if (path === undefined) return undefined;
  try {
    const keeper = await startSlotKeeper(path, maxInFlight, pacer);
    process.env[SLOT_KEEPER_VARIABLE] = keeper.path;
    return keeper;
  } catch {
    return undefined;
  }
}

function causeOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer within REQUEST_TIMEOUT_MS';
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const problem = tlsProblem(cause?.code, cause?.message);
  if (problem !== undefined) return `${cause!.code}: ${problem}`;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** Each worker keeps at least one request in flight: more workers than MAX_IN_FLIGHT would pass it. */
export function tooManyWorkers(config: Pick<SuiteConfig, 'maxInFlight'>, workers: number): string | undefined {
  if (workers <= config.maxInFlight) return undefined;
  return `MAX_IN_FLIGHT ${config.maxInFlight} is fewer than the ${workers} workers, each of which keeps at least one request in flight: raise MAX_IN_FLIGHT or lower --workers.`;
}
