// What the judging proxy's two threads say to each other (proxy.ts and proxy-judging-thread.ts).
// An exchange travels without its body texts: they are the decoded bodies again, and are rebuilt on
// the judging side, so that the proxy's thread copies each body once, not twice.
import type { PassedExchange } from './proxy.ts';

export interface JudgingThreadData {
  /** Where the traffic went (`proxy → https://…`, one per service): the reports' sources. */
  sources: string[];
  har?: string;
  creator: { name: string; version: string };
  rerun: string;
}

export type ToJudgingThread =
  | { kind: 'exchange'; exchange: PassedExchange }
  /**
   * `finish`: the final reports; `report`: an interim one, the judge going on. `credentialHeaders`:
   * those the proxy saw on any request or answer, judged or not (ProxyCounts.credentialHeaders).
   */
  | {
      kind: 'finish' | 'report';
      notJudged: Array<[string, number]>;
      credentialHeaders: string[];
      /** The share judged and how it was chosen (proxy-sampling.ts's describeSampling), when not every exchange was. */
      sampling?: string | undefined;
    };
export type FromJudgingThread =
  | { kind: 'ready' }
  | { kind: 'taken'; count: number; bytes: number }
  | { kind: 'done'; exitCode: number; console: string; harEntries?: number }
  /** An interim report written: its verdict, as of when, and where; or why it could not be. */
  | { kind: 'reported'; verdict: string; exchanges: number; asOf: string; path: string }
  | { kind: 'report-failed'; message: string }
  | { kind: 'failed'; message: string };

/** How often (in exchanges) the judging thread says how much it has taken. */
export const TAKEN_EVERY = 32;

/**
 * The judging thread's priority on Linux (proxy-judging-thread.ts): the lowest, so that it runs on
 * what the traffic, the target and the machine's other work leave. Flat out at 10 connections, with
 * 10 it still took 44 µs of CPU per exchange and the traffic passed 0.32x what it did directly; with
 * 19, 33-34 µs and 0.34x-0.35x, every exchange judged at a steady 1,000 a second all the same (four
 * runs each, alternated: docs/passive-proxy.md).
 */
export const JUDGING_THREAD_NICE = 19;

/** The bytes of an exchange's kept bodies: what its copy to the judging thread costs. */
export const bodyBytes = (exchange: PassedExchange): number =>
  (exchange.passed.requestBody?.byteLength ?? 0) + (exchange.passed.responseBody?.byteLength ?? 0);

export function withoutBodyTexts(exchange: PassedExchange): PassedExchange {
  const { bodyText: _request, ...request } = exchange.request;
  const { bodyText: _response, ...response } = exchange.response;
  return { ...exchange, request, response };
}

/** The exchange as it was passed: Buffers again (they arrive as Uint8Arrays), and the body texts rebuilt from them. */
export function withBodyTexts(exchange: PassedExchange): PassedExchange {
  const asBuffer = (bytes: Uint8Array | undefined) => bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const requestBody = asBuffer(exchange.passed.requestBody);
  const responseBody = asBuffer(exchange.passed.responseBody);
  return {
    ...exchange,
    request: { ...exchange.request, ...(requestBody && { bodyText: requestBody.toString('utf8') }) },
    response: { ...exchange.response, ...(responseBody && { bodyText: responseBody.toString('utf8') }) },
    passed: { ...exchange.passed, ...(requestBody && { requestBody }), ...(responseBody && { responseBody }) },
  };
}
