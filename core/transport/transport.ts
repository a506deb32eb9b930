// How one request of the suite reaches the target and comes back as something it can judge. Over
// the worker's wire (wire.ts: Node's HTTP client, or Playwright's request context when tracing),
// every request first passes the write guard, the request budget and the pacer. Then:
// - 429 waits as the target asks (rate-limit.ts), a bounded number of times.
// - A reset, a timeout, an answer cut short, or 502/503/504 is retried with backoff, a bounded number
//   of times. What is still unresolved is TargetUnavailable: the run is INCONCLUSIVE, never a false
//   FAIL, and the rest of the run's requests fail at once instead of each waiting out its retries.
// - Any other 5xx is sent once more to confirm it. A 5xx the target gives twice for the same request
//   is its answer, and the checks judge it as a conformance failure.
// At most MAX_IN_FLIGHT requests of the run are on the wire at once (in-flight.ts). Inside
// a property's rehearsal each answer is also kept for fast-check's run, which takes it from there
// (rehearsal.ts): the same request is sent once, whichever stage asks for it first.
import { bodyTextOf } from './body-text.ts';
import { AnswerTooLarge, RateLimitedBeyondBound, TargetUnavailable, WriteRefused } from './errors.ts';
import { holdAfterAnswer, MAX_RATE_LIMIT_WAIT_MS, Pacer, pacedInFlight, RATE_LIMIT_RETRIES, rateLimitWaitMs } from './rate-limit.ts';
import { RunState } from './run-state.ts';
import { refusedWrite } from './write-guard.ts';
import { InFlightLimit, type InFlight } from './in-flight.ts';
import type { PacedTime } from './paced-time.ts';
import { currentStage } from '../property/rehearsal.ts';
import { echoRedactor, type EchoRedactor } from './echoed-secrets.ts';
import type { SuiteConfig } from '../run/config.ts';
import type { Wire, WireAnswer, WireRequest } from './wire.ts';
import { traceHeadersOf, withoutTraceHeaders } from './trace-context.ts';

/** Retries of a transient failure, and the wait before each: the last try starts 3.5 s after the first. */
const TRANSIENT_BACKOFF_MS: readonly number[] = [500, 1000, 2000];
/** The wait before sending a 5xx request again to confirm it. */
const CONFIRM_5XX_DELAY_MS = 200;
const TRANSIENT_STATUSES = new Set([502, 503, 504]);

/** A request as the suite sends it: the target's address, keys as their tokens (the wire puts them in). */
export type TransportRequest = WireRequest;

export interface TransportAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body's bytes were not UTF-8 (body-text.ts). */
  notUtf8?: true;
  /** From the start of the last attempt to the end of its body. */
  durationMs: number;
  /** When the end of its body arrived, in milliseconds since the epoch (checks/answer-age.ts). */
  receivedAt: number;
  /** Requests sent for this answer: more than one after a retry. */
  attempts: number;
  /**
   * The trace headers (trace-context.ts) of the request that got this answer: in a property's replay,
   * its rehearsal's, which the target saw, not those of the request that asked again.
   */
  traceHeaders: Record<string, string>;
}

export interface TransportOptions {
  config: SuiteConfig;
  pacer?: Pacer;
  runState?: RunState;
  /** The worker's slots of MAX_IN_FLIGHT (shared with the run's other workers, or its own share); one request at a time without it. */
  inFlight?: InFlight;
  sleep?: (ms: number) => Promise<void>;
  /** Where the time a request is held by the suite's own bounds is credited back (paced-time.ts). */
  pacedTime?: PacedTime;
}

/** Each configured key under the placeholder the suite sends in its place. */
export function secretPlaceholders(config: SuiteConfig): ReadonlyMap<string, string> {
  return new Map([
    ['$API_KEY', config.apiKey],
    ...(config.restrictedApiKey ? [['$RESTRICTED_API_KEY', config.restrictedApiKey] as const] : []),
  ]);
}

interface WaitingRequest {
  described: string;
  failures: number;
  onWire: boolean;
}

type Attempt = { kind: 'answer'; response: WireAnswer; started: number } | { kind: 'transient'; reason: string };

export class Transport {
  private readonly pacer: Pacer;
  private readonly runState: RunState;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly inFlight: InFlight;
  private readonly redactEchoes: EchoRedactor;
  /**
   * The requests of this transport not yet answered, with how many times each has failed so far and
   * whether it is on the wire now. One held by the suite's own pacing is not waiting on the target.
   */
  private readonly waiting = new Map<symbol, WaitingRequest>();

  constructor(
    private readonly wire: Wire,
    private readonly options: TransportOptions,
  ) {
    this.pacer = options.pacer ?? new Pacer(undefined);
    this.runState = options.runState ?? new RunState(undefined, options.config.requestBudget);
    this.sleep = options.sleep ?? ((ms) => new Promise((resume) => setTimeout(resume, ms)));
    this.inFlight = pacedInFlight(options.inFlight ?? new InFlightLimit(1), this.pacer, this.sleep);
    this.redactEchoes = echoRedactor(secretPlaceholders(options.config));
  }

  /** The same way to the target (pacing, budget, gateway), with another bound on requests in flight. */
  withInFlight(inFlight: InFlight): Transport {
    return new Transport(this.wire, { ...this.options, pacer: this.pacer, runState: this.runState, inFlight });
  }

  /** How many requests this transport may have on the wire at once. */
  get concurrency(): number {
    return this.inFlight.slots;
  }

  /**
   * The requests waiting on the target, described (a test that runs out of time names them): those
   * on the wire, and those the target already failed. A request held by MAX_RPS, MAX_IN_FLIGHT or a
   * rate limit's hold waits on the suite's bounds, not on the target, and is not among them.
   */
  requestsWaiting(): string[] {
    return [...this.waiting.values()]
      .filter(({ onWire, failures }) => onWire || failures > 0)
      .map(({ described, failures }) =>
        failures === 0 ? described : `${described} (failed ${failures === 1 ? 'once' : `${failures} times`} so far)`,
      );
  }

  /**
   * Waits `ms` for one of the suite's own bounds (an answer's age outlasted: checks/answer-age.ts),
   * the time given back to the running test as a pace's is.
   */
  async waitOwnBound(ms: number): Promise<void> {
    if (ms <= 0) return;
    const release = this.options.pacedTime?.hold() ?? (() => {});
    try {
      await this.sleep(ms);
    } finally {
      release();
    }
  }

  async send(request: TransportRequest): Promise<TransportAnswer> {
    const refusal = refusedWrite(this.options.config, request.method, request.url);
    if (refusal !== undefined) throw new WriteRefused(`Not sent: ${refusal}`);
    const stage = currentStage();
    if (stage === undefined) return this.sendNow(request);
    const key = requestKey(request);
    if (stage.kind === 'replay') {
      const kept = stage.memo.take(key) as Promise<TransportAnswer> | undefined;
      if (kept !== undefined) return kept;
      return this.sendNow(request);
    }
    const answer = this.sendNow(request);
    stage.memo.keep(key, answer);
    return answer;
  }

  private async sendNow(request: TransportRequest): Promise<TransportAnswer> {
    const id = Symbol('request');
    this.waiting.set(id, { described: `${request.method} ${request.url}`, failures: 0, onWire: false });
    try {
      return await this.sendWaiting(request, this.waiting.get(id)!);
    } finally {
      this.waiting.delete(id);
    }
  }

  private async sendWaiting(request: TransportRequest, state: WaitingRequest): Promise<TransportAnswer> {
    const { described } = state;
    let rateLimited = 0;
    let transient = 0;
    let confirming = false;
    for (let attempts = 1; ; attempts += 1) {
      this.runState.takeRequest(described);
      state.onWire = false;
      const attempt = await this.heldThenSent(request, state);

      if (attempt.kind === 'answer') {
        const { response } = attempt;
        const { headers, status } = response;
        // A window with nothing left, or a 429, holds every request of the run until it resets.
        const holdMs = status === 429 ? rateLimitWaitMs(headers) : holdAfterAnswer(headers);
        if (holdMs > 0) this.runState.holdFor(Math.min(holdMs, MAX_RATE_LIMIT_WAIT_MS));
        if (status === 429) {
          const waitMs = rateLimitWaitMs(headers);
          await response.dispose();
          if (rateLimited >= RATE_LIMIT_RETRIES || waitMs > MAX_RATE_LIMIT_WAIT_MS) {
            throw new RateLimitedBeyondBound(
              `The target kept answering 429 to ${described} (${rateLimited + 1} times; it asked to wait ${Math.ceil(waitMs / 1000)} s). The run cannot judge it: lower MAX_RPS, or raise the target's limit.`,
            );
          }
          rateLimited += 1;
          continue;
        }
        if (!TRANSIENT_STATUSES.has(status)) {
          if (status >= 500 && !confirming) {
            confirming = true;
            await response.dispose();
            await this.sleep(CONFIRM_5XX_DELAY_MS);
            continue;
          }
          // A key the target echoes goes no further than here (echoed-secrets.ts).
          const read = response.body ? bodyTextOf(await response.body()) : { text: await response.text() };
          const text = this.redactEchoes(read.text);
          const clean = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, this.redactEchoes(value)]));
          return {
            status,
            headers: clean,
            text,
            ...(read.notUtf8 && { notUtf8: true }),
            durationMs: performance.now() - attempt.started,
            receivedAt: Date.now(),
            attempts,
            traceHeaders: traceHeadersOf(request.headers),
          };
        }
        await response.dispose();
      }

      const reason = attempt.kind === 'transient' ? attempt.reason : `it answered ${attempt.response.status}`;
      if (transient >= TRANSIENT_BACKOFF_MS.length) {
        const message = `${described} failed ${attempts === 1 ? 'once' : `${attempts} times`}; the last time ${reason}. Nothing can be judged from it.`;
        this.runState.markUnavailable(message);
        throw new TargetUnavailable(message);
      }
      await this.sleep(TRANSIENT_BACKOFF_MS[transient]!);
      transient += 1;
      state.failures = transient;
    }
  }

  /**
   * Waits out the suite's own bounds (a rate limit's hold, MAX_RPS's spacing, a slot of
   * MAX_IN_FLIGHT), credited back to the test's time, then sends one attempt.
   */
  private async heldThenSent(request: TransportRequest, state: WaitingRequest): Promise<Attempt> {
    const release = this.options.pacedTime?.hold() ?? (() => {});
    try {
      // Only a real wait goes through a timer: setTimeout(0) alone costs a millisecond a request.
      const held = this.runState.heldForMs();
      if (held > 0) await this.sleep(held);
      const delay = this.pacer.delayBeforeRequest();
      if (delay > 0) await this.sleep(delay);
      return await this.inFlight.run(async (onWire) => {
        release();
        // On the wire from here until the answer is read (or the next attempt is held again).
        state.onWire = true;
        return this.attempt(request, onWire);
      });
    } finally {
      release();
    }
  }

  private async attempt(request: TransportRequest, onWire: () => void): Promise<Attempt> {
    const started = performance.now();
    const outcome = await this.wire.send(request, onWire);
    if (outcome.kind === 'answer') return { kind: 'answer', response: outcome.answer, started };
    if (outcome.failure === 'body-too-large') {
      throw new AnswerTooLarge(
        `The answer to ${request.method} ${request.url} was not read: ${outcome.detail} (MAX_BODY_BYTES). Nothing can be judged from it; raise MAX_BODY_BYTES to read it.`,
      );
    }
    return { kind: 'transient', reason: `${outcome.failure}: ${outcome.detail}` };
  }
}

/**
 * What makes two requests the same request: a rehearsal's answer to one is the answer to the other.
 * Their trace headers name the request, not what it asks: the replay's new parent id asks the same.
 */
function requestKey({ method, url, headers, body }: TransportRequest): string {
  const named = Object.entries(withoutTraceHeaders(headers)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([method, url, named, body?.toString('base64') ?? null]);
}
