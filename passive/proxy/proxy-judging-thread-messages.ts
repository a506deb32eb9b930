// What the judging proxy's two threads say to each other (proxy.ts and proxy-judging-thread.ts).
// An exchange travels without its body texts: they are the decoded bodies again, and are rebuilt on
// the judging side, so that the proxy's thread copies each body once, not twice.
import type { PassedExchange } from './proxy.ts';
import { responseText } from '../recorded-exchange.ts';
import type { Env, SuiteConfig } from '../../core/run/config.ts';

/**
 * What the proxy command read as it started, handed down to both threads rather than read again
 * there: the environment (for the report folder and the secrets to redact) and the passive run's
 * configuration (loadPassiveConfig).
 */
export interface ProxyRunSettings {
  env: Env;
  config: SuiteConfig;
}

export interface JudgingThreadData {
  settings: ProxyRunSettings;
  /** Where the traffic went (`proxy → https://…`, one per service): the reports' sources. */
  sources: string[];
  har?: string;
  creator: { name: string; version: string };
  rerun: string;
  /**
   * One Int32 the proxy's thread sets to 1 once the proxy has stopped and the judge has had
   * FINISH_JUDGING_MS to catch up (or a second signal came): the exchanges still waiting are then
   * counted, not judged, so that the final report comes within a bound however starved the judge is.
   */
  cut: SharedArrayBuffer;
}

/** How long after the proxy stops the judge may go on with the exchanges it has not reached yet. */
export const FINISH_JUDGING_MS = 10_000;

/** How the reports name the exchanges left unjudged at the stop: "the judge fell behind", as the sampler's are. */
export const CUT_AT_STOP = 'exchanges not judged: the judge fell behind the traffic, and the proxy stopped before it caught up';

/** What the console and the verdict's reason say when the stop cut the judge short: the share judged, as the sampler's line does. */
export function describeCut(cut: number, handed: number): string {
  const judged = handed - cut;
  return (
    `judged a share of the traffic: ${((100 * judged) / handed).toFixed(1)}% (${judged} of ${handed} exchanges): ` +
    `the proxy stopped before the judge caught up, and the last ${cut} exchange${cut === 1 ? '' : 's'} passed on unjudged (still written to the HAR, if one was asked for)`
  );
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
 * The judging thread's priority on Linux (proxy-judging-thread.ts): below the traffic's thread, so
 * that it runs first, but not the lowest. A priority affects every process of the machine, not only
 * the proxy's own threads: at 19, beside two busy processes of normal priority, the judge got about
 * 1.5% of a core, wrote one interim report in 15 s where it should write 25, and judged nothing more;
 * at 10 it wrote 11 and judged every exchange. Flat out at 10 connections on a machine of its own,
 * 19 gained the traffic about 8% over 10 (docs/passive-proxy.md): not worth a judge that never reports.
 */
export const JUDGING_THREAD_NICE = 10;

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
    response: { ...exchange.response, ...(responseBody && responseText(responseBody)) },
    passed: { ...exchange.passed, ...(requestBody && { requestBody }), ...(responseBody && { responseBody }) },
  };
}
