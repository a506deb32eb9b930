// How many requests a run sends, before it sends any: what REQUEST_BUDGET scales the property runs
// by, and what a dry run lists. Per operation, a fixed part (plain tests, per-sample properties, and
// learning the target, once per run whatever the number of workers: core/learning/learn-once.ts)
// and a part per property run. Measured on the reference (1 and 20 runs) with about 10% to spare;
// tests/suite/bounded-run.spec.ts holds the model to being an upper bound of real runs. The suite
// samples and does not enumerate, so a larger target costs hardly more: whole runs (20 per property,
// one seed) against the reference standing at 1,000, 20,000 and 100,000 calls sent 709, 736 and 735
// requests, for a model of 807. A target with more pages to walk may still need more, which is why
// the budget is also enforced request by request.
import { availableParallelism } from 'node:os';
import type { OperationId } from '../../openapi/contract.ts';
import { ConfigError, type SuiteConfig } from './config.ts';
import { preflightAsks } from './preflight-checks.ts';

/** The most List Calls requests learning the target sends, once per run (learning/learn-target.ts): 9 sample pages, 2 paging probes, 40 date probes (for startedAt five times around each of 4 calls, for endedAt three, and the pin of each call alone), 3 took-part probes. */
const LEARNING_LISTS = 54;
/** The most Get Call requests learning sends: the sampled calls fetched alone (learning/target-sample.ts). */
export const LEARNING_FETCHES = 4;
export const LEARNING_REQUESTS = LEARNING_LISTS + LEARNING_FETCHES;

interface Cost {
  fixed: number;
  perRun: number;
}

const MODEL: Readonly<Record<OperationId, Cost>> = {
  listCalls: { fixed: 72 + LEARNING_LISTS, perRun: 26 },
  getCall: { fixed: 16 + LEARNING_FETCHES, perRun: 7 },
  markGroupConversationAsUnread: { fixed: 14, perRun: 4 },
};

/**
 * Workers against a remote target. A run there waits on the network more than on the two cores, but
 * every worker costs the CPU of starting it. Measured with the reference behind a latency proxy
 * (three alternating runs each, once a repeated example was no longer sent again): three workers
 * took 6.0 s at 20 ms, 8.3-8.5 s at 50 ms and 17.3-17.5 s at 150 ms, where four took 6.3-6.4 s,
 * 8.4-8.7 s and 17.1-17.5 s; over loopback, 5.0 s where four took 5.7 s. Eight spent more on
 * starting workers than they saved.
 */
export const REMOTE_WORKERS = 3;

/**
 * The workers a run gets when the command line sets none: Playwright's own default (half the cores)
 * over loopback, REMOTE_WORKERS against a remote target, and never more than MAX_IN_FLIGHT, since
 * every worker keeps at least one request in flight.
 */
export function defaultWorkers(config: Pick<SuiteConfig, 'target' | 'maxInFlight'>): number {
  const wanted = config.target.kind === 'remote' ? REMOTE_WORKERS : Math.max(1, Math.floor(availableParallelism() / 2));
  return Math.min(wanted, config.maxInFlight);
}

interface RequestEstimate {
  perOperation: Record<OperationId, number>;
  /** Everything, the remote target's preflight reads included (preflight-checks.ts). */
  total: number;
}

function estimateRequests(
  config: Pick<SuiteConfig, 'allowWrites' | 'unread' | 'target' | 'apiKey' | 'restrictedApiKey' | 'callsBaseUrl' | 'chatBaseUrl'>,
  runs: number,
): RequestEstimate {
  const writes = config.allowWrites && config.unread !== undefined;
  const cost = ({ fixed, perRun }: Cost) => fixed + perRun * runs;
  const asks = preflightAsks(config);
  // The preflight's write is listed with the run's writes (preflight.ts), and counted with them here.
  const preflightWrites = asks.filter((ask) => ask.method !== 'GET').length;
  const perOperation = {
    listCalls: cost(MODEL.listCalls),
    getCall: cost(MODEL.getCall),
    markGroupConversationAsUnread: writes ? cost(MODEL.markGroupConversationAsUnread) + preflightWrites : 0,
  };
  // At most these: an ask after one that was not a success is not sent.
  const preflight = asks.length - preflightWrites;
  return { perOperation, total: preflight + Object.values(perOperation).reduce((sum, count) => sum + count, 0) };
}

/**
 * The share of REQUEST_BUDGET kept for comparisons taken again because the data moved under them
 * (core/checks/moving-data.ts) and for calls listed again once they settled (CALLS-GET-MATCHES-LIST):
 * the model counts a standing target's requests. Measured against the reference living at one new
 * call a second under MAX_RPS=5 with 19 runs: 841 requests wanted for a model of 774 (8.7% more), so
 * that the budget ran out before the last tests and the run was INCONCLUSIVE.
 */
export const RETAKE_RESERVE = 0.12;

export interface BudgetPlan {
  runs: number;
  estimate: RequestEstimate;
  /** The configured runs, when the budget made them fewer. */
  scaledFrom?: number;
}

/** The most property runs (up to the configured ones) whose estimate, with RETAKE_RESERVE to spare, fits REQUEST_BUDGET. */
export function planBudget(config: SuiteConfig): BudgetPlan {
  const budget = config.requestBudget;
  const full = estimateRequests(config, config.runs);
  if (budget === undefined) return { runs: config.runs, estimate: full };
  const room = Math.floor(budget / (1 + RETAKE_RESERVE));
  if (full.total <= room) return { runs: config.runs, estimate: full };
  const least = estimateRequests(config, 1);
  if (least.total > budget) {
    throw new ConfigError('REQUEST_BUDGET', `is too small: one run per property needs about ${least.total} requests (got ${budget})`);
  }
  let runs = 1;
  while (runs + 1 < config.runs && estimateRequests(config, runs + 1).total <= room) runs += 1;
  return { runs, estimate: estimateRequests(config, runs), scaledFrom: config.runs };
}

/** The one line a run prints about its budget. */
export function describePlan(plan: BudgetPlan, budget: number): string {
  const scaled =
    plan.scaledFrom === undefined
      ? `${plan.runs} runs per property fit`
      : `property runs scaled from ${plan.scaledFrom} to ${plan.runs} to fit`;
  return `REQUEST_BUDGET ${budget}: ${scaled} (about ${plan.estimate.total} requests expected, and ${Math.round(RETAKE_RESERVE * 100)}% kept for comparisons a living target makes the suite take again; no request past ${budget} is sent).`;
}
