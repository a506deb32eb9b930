// The target is learned once per run, whatever the number of workers and however often Playwright
// starts a worker again after a failed test. The runner starts learning it while the workers start
// (learn-in-runner.ts); where it does not, the first worker to need it does. The learner records every
// answer and leaves the record in the run's state folder; every other worker replays those answers
// through the same learning code, so all of them judge by the same readings and none asks the target
// again. Learning has a deadline: a target too slow to learn (one that trickles its answers) counts
// as unavailable, so the run stops with the reason instead of each test waiting out its own timeout.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../transport/exchange.ts';
import type { CallsApi, Query, RequestOptions } from '../transport/api.ts';
import type { RunState } from '../transport/run-state.ts';
import type { SuiteConfig } from '../run/config.ts';
import { LEARNING_REQUESTS } from '../run/budget-plan.ts';
import { TargetUnavailable, TransportError } from '../transport/errors.ts';
import { learnTarget, type LearnedTarget } from './learn-target.ts';
import type { ListingApi } from './listing-api.ts';

const RECORD_FILE = 'learned-target.json';
const LOCK_DIRECTORY = 'learning.lock';
/** How often a worker looks for the record while another learner holds the lock. */
const POLL_MS = 20;

interface Recorded {
  /** The operation and what was asked, so a replay that asks anything else is caught at once. */
  key: string;
  exchange: Exchange;
}

/**
 * How long learning may take before the target counts as unavailable: two minutes (or four request
 * timeouts, if longer), plus the time MAX_RPS makes its requests wait: about three seconds a
 * request. A target that trickles an answer is given up on sooner, by the transport's own timeout.
 */
export function learningDeadlineMs(config: Pick<SuiteConfig, 'requestTimeoutMs' | 'maxRps'>): number {
  const paced = config.maxRps === undefined ? 0 : Math.ceil((LEARNING_REQUESTS / config.maxRps) * 1000);
  return Math.max(120_000, 4 * config.requestTimeoutMs) + paced;
}

export interface LearnOnceOptions {
  api: CallsApi;
  runState: RunState;
  seed: number;
  deadlineMs: number;
  /** SETTLE_SECONDS: how long after a call's end its late fields may still change (DEFAULT_SETTLE_SECONDS when not given). */
  settleSeconds?: number;
  /** The page-size names to try: PAGE_SIZE_PARAMETER's, when it names one. */
  pageSizeNames?: readonly string[];
  /** MAX_ANSWER_AGE: how much older than its arrival an answer may be (checks/answer-age.ts); 0 when not given. */
  maxAnswerAgeSeconds?: number;
  /**
   * Called when this learner's learning ends, learned or not, before the workers that wait on it go
   * on: the runner holds the run there, under MAX_RPS (learn-in-runner.ts).
   */
  whenLearned?: () => void;
}

export async function learnOnce({
  api,
  runState,
  seed,
  deadlineMs,
  settleSeconds,
  pageSizeNames,
  maxAnswerAgeSeconds,
  whenLearned,
}: LearnOnceOptions): Promise<LearnedTarget> {
  const options = { settleSeconds, pageSizeNames, maxAnswerAgeSeconds };
  const deadline = Date.now() + deadlineMs;
  const folder = runState.folder;
  if (folder === undefined) return withinDeadline(learnTarget(api, seed, options), deadline, deadlineMs, runState);
  const record = join(folder, RECORD_FILE);
  const lock = join(folder, LOCK_DIRECTORY);
  for (;;) {
    if (existsSync(record)) return learnTarget(new ReplayApi(readRecord(record)), seed, options);
    const stopped = runState.stoppedBecause();
    if (stopped !== undefined) throw new TargetUnavailable(`Not learned: ${stopped}`);
    if (takeLock(lock)) break;
    if (Date.now() > deadline) throw timedOut(deadlineMs, runState);
    await new Promise((resume) => setTimeout(resume, POLL_MS));
  }
  try {
    const recorder = new RecordingApi(api);
    const learned = await withinDeadline(learnTarget(recorder, seed, options), deadline, deadlineMs, runState).finally(whenLearned);
    writeRecord(record, await recorder.recorded());
    return learned;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Learning the target (its sample, paging, date semantics, readings) is what most tests stand on: when a
 * transport error (an answer too large, the target unavailable) keeps it from finishing, every test
 * that needs it would fail on the same error after a worker restart of its own. The run stops there
 * instead, as it does for an unavailable target, and the rest is skipped with the reason.
 */
export async function stopRunIfUnlearned<T>(runState: RunState, learn: () => Promise<T>): Promise<T> {
  try {
    return await learn();
  } catch (error) {
    if (error instanceof TransportError) runState.markUnavailable(`Learning the target failed: ${error.message}`);
    throw error;
  }
}

/** The lock is a folder (made atomically) naming its holder; a holder that is gone leaves it to the next. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(readFileOr(join(lock, 'pid'), ''));
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const readFileOr = (path: string, fallback: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
};

async function withinDeadline<T>(work: Promise<T>, deadline: number, deadlineMs: number, runState: RunState): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut(deadlineMs, runState)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function timedOut(deadlineMs: number, runState: RunState): TargetUnavailable {
  const reason = `Learning the target did not finish within ${Math.round(deadlineMs / 1000)} s: it answers too slowly to be judged.`;
  runState.markUnavailable(reason);
  return new TargetUnavailable(reason);
}

/** Answers are kept as their text, in the order they were asked for; the parsed body is rebuilt from it on replay. */
function writeRecord(path: string, recorded: readonly Recorded[]): void {
  const slim = recorded.map(({ key, exchange }) => ({
    key,
    exchange: { ...exchange, response: { ...exchange.response, body: undefined } },
  }));
  writeFileSync(`${path}.tmp`, JSON.stringify(slim));
  renameSync(`${path}.tmp`, path);
}

function readRecord(path: string): Recorded[] {
  const recorded = JSON.parse(readFileSync(path, 'utf8')) as Recorded[];
  for (const { exchange } of recorded) if (exchange.response.isJson) exchange.response.body = JSON.parse(exchange.response.text);
  return recorded;
}

const keyOf = (operation: string, asked: unknown, options: RequestOptions) => JSON.stringify([operation, asked, options]);

/** Records each request when it is asked for, its answer when it comes: the record is in the order of asking. */
class RecordingApi implements ListingApi {
  private readonly asked: Array<{ key: string; answer: Promise<Exchange> }> = [];
  constructor(private readonly api: CallsApi) {}

  listCalls(query: Query = {}, options: RequestOptions = {}): Promise<Exchange> {
    return this.keep(keyOf('listCalls', query, options), this.api.listCalls(query, options));
  }

  getCall(sessionId: string, options: RequestOptions = {}): Promise<Exchange> {
    return this.keep(keyOf('getCall', sessionId, options), this.api.getCall(sessionId, options));
  }

  /** Everything asked, answered; called once learning has finished. */
  async recorded(): Promise<Recorded[]> {
    return Promise.all(this.asked.map(async ({ key, answer }) => ({ key, exchange: await answer })));
  }

  private keep(key: string, answer: Promise<Exchange>): Promise<Exchange> {
    this.asked.push({ key, answer });
    return answer;
  }
}

/**
 * The recorded answers, by what was asked. Learning asks the same questions on replay; requests it
 * sends together may be asked in another order, so each answer is found by its request (the same
 * request asked twice gets its answers in the recorded order), and a request never recorded fails.
 */
class ReplayApi implements ListingApi {
  private readonly byKey = new Map<string, Exchange[]>();
  constructor(recorded: readonly Recorded[]) {
    for (const { key, exchange } of recorded) this.byKey.set(key, [...(this.byKey.get(key) ?? []), exchange]);
  }

  listCalls(query: Query = {}, options: RequestOptions = {}): Promise<Exchange> {
    return this.answer(keyOf('listCalls', query, options));
  }

  getCall(sessionId: string, options: RequestOptions = {}): Promise<Exchange> {
    return this.answer(keyOf('getCall', sessionId, options));
  }

  private async answer(key: string): Promise<Exchange> {
    const exchange = this.byKey.get(key)?.shift();
    if (exchange === undefined)
      throw new Error(
        `Replaying what the run learned of the target asked for ${key}, which the record does not hold (or holds fewer times): learning is not deterministic.`,
      );
    return exchange;
  }
}
