// A living reference (reference/live/) for the project's own tests: a real server on a loopback port
// whose clock the test sets, so that every moment is chosen, and a client that holds every answer
// to the contract and to the suite's own per-answer checks (core/checks) as it goes.
import type { APIRequestContext } from '@playwright/test';
import { expect, expectContractValid, sendRaw, SELF_TEST_CALLS, SELF_TEST_SEED, type Answer } from '../reference-fixtures.ts';
import { createServer, type ReferenceOptions } from '../../reference/server.ts';
import { DATA_NOW } from '../../reference/data/directory.ts';
import type { ReferenceReadings } from '../../reference/readings.ts';
import { loadContract, type Contract, type OperationId } from '../../openapi/contract.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { checkExchange, type ExchangeContext } from '../../core/checks/index.ts';
import { indexSchemaRequirements } from '../../core/checks/schema-requirements.ts';
import { OPEN_READINGS, type Readings } from '../../core/checks/readings.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { listPath, type ListQuery } from './list-oracle.ts';
import type { SettleDelay } from '../../reference/live/settle-delay.ts';
import { loggedBy, planLiveCall, type LivePlan } from '../../reference/live/live-call.ts';
import { callSource } from '../../reference/data/calls.ts';
import { createStore } from '../../reference/store.ts';

export type Shown = Record<string, any> & { sessionId: string };

export interface LivingClient {
  /** Sets the reference's clock to DATA_NOW + `seconds`. */
  at(seconds: number): void;
  /** One page of List Calls (perPage 1000 unless the query says otherwise), on behalf of `onBehalfOf` when given. */
  list(query?: ListQuery & { page?: number; perPage?: number }, onBehalfOf?: string): Promise<Answer>;
  /** Every page of List Calls at the current moment, and each page's answer. */
  listAll(query?: ListQuery, perPage?: number, onBehalfOf?: string): Promise<{ calls: Shown[]; pages: Answer[] }>;
  get(sessionId: string, onBehalfOf?: string): Promise<Answer>;
  /** The exchange the suite's checks would see for an answer. */
  exchangeOf(operation: OperationId, url: string, answer: Answer): Exchange;
}

/** The readings the suite's checks accept of a reference serving `readings`: exactly its own. */
function readingsServed(readings: ReferenceReadings): Readings {
  return readings === 'deployment'
    ? { ...OPEN_READINGS, minutes: ['call-span'], participantCount: ['joined-entries'] }
    : { ...OPEN_READINGS, minutes: ['sum-of-entries'], participantCount: ['entries'] };
}

let shared: { contract: Contract; schemaRequirements: ExchangeContext['schemaRequirements'] } | undefined;
/** What the suite's per-answer checks need, set to accept exactly the readings the reference serves. */
export function checkContext(readings: ReferenceReadings): ExchangeContext {
  if (!shared) {
    const contract = loadContract();
    shared = { contract, schemaRequirements: indexSchemaRequirements(loadCatalog(), contract.document) };
  }
  return { ...shared, readings: readingsServed(readings) };
}

/**
 * A living reference on the self-tests' data set at `rate` calls a second, for the length of `run`;
 * its calls settle over the reference's default delay unless `settleDelay` says otherwise.
 */
export async function withLivingReference(
  request: APIRequestContext,
  options: { rate: number; readings?: ReferenceReadings; settleDelay?: SettleDelay } & Omit<ReferenceOptions, 'live' | 'readings'>,
  run: (client: LivingClient) => Promise<void>,
): Promise<void> {
  const { rate, settleDelay, readings = 'entries', ...others } = options;
  let now = DATA_NOW;
  const reference = createServer({
    seed: SELF_TEST_SEED,
    calls: SELF_TEST_CALLS,
    ...others,
    readings,
    live: { rate, clock: () => now, ...(settleDelay && { settleDelay }) },
  });
  const context = checkContext(readings);
  try {
    const base = await reference.listen(0);
    const exchangeOf = (operation: OperationId, url: string, answer: Answer): Exchange => ({
      operation,
      request: { method: 'GET', url, headers: { apikey: '$API_KEY' } },
      response: { status: answer.status, headers: answer.headers, body: answer.body, text: answer.text, isJson: answer.body !== undefined },
      durationMs: 1,
    });
    const send = async (operation: OperationId, path: string, onBehalfOf?: string) => {
      const url = `${base}${path}`;
      const answer = await sendRaw(request, url, {
        headers: { apikey: reference.keys.fullAccess, ...(onBehalfOf !== undefined && { onBehalfOf }) },
      });
      // A fault breaks answers on purpose: only the clean reference is held to the contract and the checks.
      if (!others.fault) {
        expectContractValid(context.contract, operation, answer);
        expect(checkExchange(exchangeOf(operation, url, answer), context), `${path} at DATA_NOW + ${now - DATA_NOW} s`).toEqual([]);
      }
      return answer;
    };
    const list: LivingClient['list'] = (query = {}, onBehalfOf) => send('listCalls', listPath({ perPage: 1000, ...query }), onBehalfOf);
    await run({
      at: (seconds) => void (now = DATA_NOW + seconds),
      list,
      async listAll(query = {}, perPage = 1000, onBehalfOf) {
        const pages = [await list({ ...query, perPage, page: 1 }, onBehalfOf)];
        for (let page = 2; page <= pages[0]!.body.meta.pagination.total_pages; page += 1)
          pages.push(await list({ ...query, perPage, page }, onBehalfOf));
        return { calls: pages.flatMap((answer) => answer.body.data), pages };
      },
      get: (sessionId, onBehalfOf) => send('getCall', `/calls/${encodeURIComponent(sessionId)}`, onBehalfOf),
      exchangeOf,
    });
  } finally {
    await reference.close();
  }
}

/** A call logged while the reference lived: after the data set's now. */
export const isLive = (call: Shown): boolean => call.initiatedAt > DATA_NOW;

/**
 * The plans of the live calls logged by DATA_NOW + `seconds` on the self-tests' data set, by
 * sessionId: what each was drawn to do (reference/live/live-call.ts), to hold what it shows against.
 */
export function livePlans(
  options: { rate: number; readings?: ReferenceReadings; settleDelay: SettleDelay },
  seconds: number,
): Map<string, LivePlan> {
  const source = callSource(SELF_TEST_SEED, createStore(SELF_TEST_SEED, SELF_TEST_CALLS).data, options.readings ?? 'entries');
  const count = loggedBy(DATA_NOW + seconds, options.rate);
  const plans = Array.from({ length: count }, (_, index) => planLiveCall(source, options.rate, index + 1, true, options.settleDelay));
  return new Map(plans.map((plan) => [plan.sessionId, plan]));
}
