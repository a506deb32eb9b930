// Learning starts in the runner, as soon as global setup has reached the target. Every test waits on
// what is learned, and the workers take a second or more to start (each loads Playwright, the
// contract and the checks, and a run against a remote target starts four of them on two cores):
// learned meanwhile, the target's first answers are no longer on the run's critical path.
// The runner is one more learner of learn-once.ts: it holds the lock, the workers that start
// meanwhile wait for its record and replay it, and if it fails for any reason but the target (the
// transport) a worker takes the lock and learns again, where the failure reaches a test's report.
// It sends through the same transport as a worker (budget, MAX_RPS, the run's shared slots, holds),
// and leaves a record of each request for the first test to end afterwards to count (request-log.ts).
// With tracing on it does not start, so that a worker learns through the request context and the
// trace holds what was sent.
import type { FullConfig } from '@playwright/test';
import { CallsApi } from '../transport/api.ts';
import { LEARNING_TEST_CASE, RequestTrace } from '../transport/trace-context.ts';
import type { SuiteConfig } from '../run/config.ts';
import { leaveRequests, RequestLog } from '../results/request-log.ts';
import { InFlightLimit } from '../transport/in-flight.ts';
import { Pacer, pacedInFlight, rateShare } from '../transport/rate-limit.ts';
import type { RunState } from '../transport/run-state.ts';
import { SharedInFlight } from '../transport/shared-in-flight.ts';
import { secretPlaceholders, Transport } from '../transport/transport.ts';
import { directWire } from '../transport/wire.ts';
import { learningDeadlineMs, learnOnce, stopRunIfUnlearned } from './learn-once.ts';

/** Whether the runner learns the target: a run that shares its state folder, without tracing. */
export function runnerLearns(runner: Pick<FullConfig, 'projects'>, runState: RunState): boolean {
  const traced = runner.projects.some(({ use }) => {
    const trace = use.trace;
    const mode = typeof trace === 'string' ? trace : trace?.mode;
    return mode !== undefined && mode !== 'off';
  });
  return runState.folder !== undefined && !traced;
}

export interface RunnerLearning {
  /** The run's shared state: its folder holds the lock, the record and the requests left for a test. */
  runState: RunState;
  /** The socket of the run's slot keeper, when there is one. */
  slotKeeper?: string;
}

/**
 * Learns the target from the runner, leaving the record and the requests sent in the run's state
 * folder. Never rejects: a failure is the run's state (unavailable) or left for a worker to meet.
 */
export async function learnInRunner(config: SuiteConfig, { runState, slotKeeper }: RunnerLearning): Promise<void> {
  const folder = runState.folder;
  if (folder === undefined) return;
  const wire = directWire(
    secretPlaceholders(config),
    { maxBodyBytes: config.maxBodyBytes, timeoutMs: config.requestTimeoutMs },
    config.maxInFlight,
  );
  // Nothing else of the run is in flight while it learns (every test waits on it), so it may use the
  // run's every slot; through the keeper when there is one, so that the bound holds all the same,
  // and under MAX_RPS the keeper paces its starts with the whole run's.
  // Without the keeper, alone on the wire, it may start MAX_RPS requests a second, the preflight's
  // among them (just sent). The workers, each pacing by its share, then start theirs only once its
  // last start has left the window: no second holds more than MAX_RPS starts.
  const pacer = new Pacer(config.maxRps === undefined ? undefined : rateShare(config.maxRps, 1, 0));
  pacer.counted();
  const whole = new InFlightLimit(config.maxInFlight);
  const shared = slotKeeper ? await SharedInFlight.connect(slotKeeper, config.maxInFlight, pacedInFlight(whole, pacer)) : undefined;
  const holdTheWorkers = () => {
    if (config.maxRps !== undefined && !shared) runState.holdFor(pacer.quietFromMs() - Date.now());
  };
  const transport = new Transport(wire, { config, pacer: shared ? undefined : pacer, runState, inFlight: shared ?? whole });

  const log = new RequestLog();
  let flushing: NodeJS.Immediate | undefined;
  const flush = () => {
    flushing = undefined;
    leaveRequests(folder, log.drain());
  };
  // Batched by turn of the event loop: a test takes what was sent until then, a later test the rest.
  const later = () => (flushing ??= setImmediate(flush));
  const api = new SettlingApi(
    transport,
    config,
    {
      onSent: (exchange) => (log.learningHooks.onSent(exchange), later()),
      onUnanswered: (request) => (log.learningHooks.onUnanswered(request), later()),
    },
    new RequestTrace(LEARNING_TEST_CASE),
  );
  try {
    await stopRunIfUnlearned(runState, () =>
      learnOnce({
        api,
        runState,
        seed: config.seed,
        deadlineMs: learningDeadlineMs(config),
        settleSeconds: config.settleSeconds,
        maxAnswerAgeSeconds: config.maxAnswerAgeSeconds,
        ...(config.pageSizeParameter !== undefined && { pageSizeNames: [config.pageSizeParameter] }),
        whenLearned: holdTheWorkers,
      }),
    );
  } catch {
    // The target's failure is now the run's state, which every worker reads; any other is met again
    // by the worker that learns in the runner's place.
  } finally {
    // Learning that failed leaves requests on the wire: each is counted when it ends.
    await api.settled();
    if (flushing) clearImmediate(flushing);
    flush();
    shared?.close();
    await wire.close();
  }
}

/** The client, knowing when every request it was asked to send has ended. */
class SettlingApi extends CallsApi {
  private readonly sent: Array<Promise<unknown>> = [];

  override listCalls(...request: Parameters<CallsApi['listCalls']>): ReturnType<CallsApi['listCalls']> {
    return this.keep(super.listCalls(...request));
  }

  override getCall(...request: Parameters<CallsApi['getCall']>): ReturnType<CallsApi['getCall']> {
    return this.keep(super.getCall(...request));
  }

  async settled(): Promise<void> {
    await Promise.allSettled(this.sent);
  }

  private keep<T>(answer: Promise<T>): Promise<T> {
    this.sent.push(answer);
    return answer;
  }
}
