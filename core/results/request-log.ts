// Every request the suite sends, kept per worker as a compact record (operation, method, status,
// time) and handed to the reports as an attachment of the test during which it was sent. Requests
// sent while learning the target are counted with the test that first needed them when a worker
// learned it, and with the first test to end after they were sent when the runner did (below), so
// that the per-operation summary counts everything, and survives sharding and merged reports.
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { OperationId } from '../../openapi/contract.ts';
import type { Exchange, Unanswered } from '../transport/exchange.ts';
import { visible } from './visible.ts';
import { observe, type Observation } from '../coverage/observe.ts';

/** The name of the attachment the conformance reporter reads. */
export const REQUESTS_ATTACHMENT = 'conformance-requests';

export interface RequestRecord {
  operation: OperationId;
  method: string;
  /** The address up to and including /v3, so a report can name the target without the query. */
  base: string;
  /** 0 when no answer the suite could judge came back. */
  status: number;
  ms: number;
  /** Requests sent for this one, when retries made it more than one. */
  attempts?: number;
  /** The whole address of a write (anything but GET), so that the reports list every write sent. */
  url?: string;
  /** What the exchange tried of the interface, for the coverage model (core/coverage/); none when unanswered. */
  cover?: Observation;
  /**
   * Sent while learning the target, before any test (learning/): counted with a test so that the
   * requests per operation add up, but no test sent it, so coverage credits it to learning.
   */
  learning?: true;
}

export interface RequestsAttachment {
  /** The suite's seed in this worker: shards merged from runs with different seeds are told apart. */
  seed: number;
  /** The trace id every request of the test carried (transport/trace-context.ts); absent with TRACE_HEADERS=false. */
  traceId?: string;
  requests: RequestRecord[];
}

/** The address up to and including /v3 (RequestRecord.base). */
export function baseOf(url: string): string {
  const { origin, pathname } = new URL(url);
  return `${origin}${pathname.slice(0, pathname.indexOf('/v3') + 3)}`;
}

export class RequestLog {
  private pending: RequestRecord[] = [];

  readonly record = (exchange: Exchange, learning = false): void => {
    this.pending.push({
      ...this.describe({ operation: exchange.operation, method: exchange.request.method, url: exchange.request.url }),
      status: exchange.response.status,
      ms: Math.round(exchange.durationMs * 10) / 10,
      ...(exchange.attempts !== undefined && { attempts: exchange.attempts }),
      cover: observe(exchange),
      ...(learning && { learning: true as const }),
    });
  };

  readonly recordUnanswered = (request: Unanswered, learning = false): void => {
    this.pending.push({ ...this.describe(request), status: 0, ms: 0, ...(learning && { learning: true as const }) });
  };

  /** The client hooks that record into this log. */
  readonly hooks = {
    onSent: (exchange: Exchange) => this.record(exchange),
    onUnanswered: (request: Unanswered) => this.recordUnanswered(request),
  };

  /** The hooks of the client that learns the target: its records say so (RequestRecord.learning). */
  readonly learningHooks = {
    onSent: (exchange: Exchange) => this.record(exchange, true),
    onUnanswered: (request: Unanswered) => this.recordUnanswered(request, true),
  };

  private describe({ operation, method, url }: Unanswered): Pick<RequestRecord, 'operation' | 'method' | 'base' | 'url'> {
    return { operation, method, base: baseOf(url), ...(method !== 'GET' && { url }) };
  }

  /** Takes what was recorded since the last call: for a test's attachment, or to leave for one (leaveRequests). */
  drain(): RequestRecord[] {
    return this.pending.splice(0);
  }

  /** Counts requests sent outside this worker's tests (takeLeftRequests) with the test that ends next. */
  adopt(records: readonly RequestRecord[]): void {
    this.pending.push(...records);
  }

  /** Attaches what was sent since the last call, even when nothing was (the report then counts the test). */
  async attachTo(testInfo: TestInfo, seed: number, traceId?: string): Promise<void> {
    const body: RequestsAttachment = { seed, ...(traceId !== undefined && { traceId }), requests: this.drain() };
    await testInfo.attach(REQUESTS_ATTACHMENT, { body: visible(JSON.stringify(body)), contentType: 'application/json' });
  }
}

// Requests sent outside any test (the runner learning the target: learning/learn-in-runner.ts) are
// left in the run's state folder, a file per batch, and the first test of any worker to end after a
// batch was left takes it (a rename, so exactly one does): the reports count every request, and a
// merged report still does, since the count travels as that test's attachment.
const LEFT_PREFIX = 'left-requests-';
let leftBatches = 0;

export function leaveRequests(folder: string, records: readonly RequestRecord[]): void {
  if (records.length === 0) return;
  const name = `${LEFT_PREFIX}${process.pid}-${(leftBatches += 1)}.json`;
  try {
    // Written whole under another name first, so that a test never takes half a batch.
    writeFileSync(join(folder, `.${name}`), JSON.stringify(records));
    renameSync(join(folder, `.${name}`), join(folder, name));
  } catch (error) {
    // The folder goes with the run's end (run-state-teardown.ts): no test is left to count these.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export function takeLeftRequests(folder: string | undefined): RequestRecord[] {
  if (folder === undefined) return [];
  const taken: RequestRecord[] = [];
  for (const name of readdirSync(folder).filter((entry) => entry.startsWith(LEFT_PREFIX))) {
    const mine = join(folder, `.taken-${process.pid}-${name}`);
    try {
      renameSync(join(folder, name), mine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another worker took it
      throw error;
    }
    taken.push(...(JSON.parse(readFileSync(mine, 'utf8')) as RequestRecord[]));
    rmSync(mine, { force: true });
  }
  return taken;
}
