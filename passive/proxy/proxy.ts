// The judging proxy: a pass-through reverse proxy that a team puts between its own app, SDK or tests
// and the target, and that judges the traffic it passes. What passes is never altered or held: each
// client connection gets a connection of its own to the target, and the bytes pass both ways as they
// come (only Host is the target's, and the headers addressed to the proxy stay with it); the proxy
// reads them only to know where each exchange begins and ends (proxy-wire.ts), keeps a copy of each
// body on the side, and hands each exchange to the sinks (the judge, the HAR writer) after its
// answer has been sent and the client has taken it (proxy-receipt.ts). A target that cannot be
// reached gets the client a 502 from the proxy, and one that does not answer in time a 504
// (proxy-deadline.ts): counted, never judged. The request line is forwarded as received, or refused
// with a 400 (proxy-request-target.ts), never given another meaning. Here the proxy listens, stops
// and counts; each client connection is a ClientConnection (proxy-connection.ts), its connections to
// the target a TargetConnections (proxy-upstream.ts), and what they all share a ProxyLedger
// (proxy-ledger.ts).
import type { Socket } from 'node:net';
import { ClientConnection } from './proxy-connection.ts';
import { DEFAULT_UPSTREAM_TIMEOUTS, type UpstreamTimeouts, type UpstreamWait } from './proxy-deadline.ts';
import { ProxyLedger } from './proxy-ledger.ts';
import { listenShared } from './proxy-listen.ts';
import { Routes } from './proxy-routes.ts';
import type { RecordedExchange } from '../recorded-exchange.ts';

/** A recorded exchange with what a HAR of it needs besides: the decoded bytes, and the answer's status text. */
export interface PassedExchange extends RecordedExchange {
  passed: {
    httpVersion: string;
    statusText: string;
    /** The request body decoded, as passed (undefined when empty or too large to keep). */
    requestBody?: Buffer;
    /** The answer's body decoded (undefined when too large to keep or not decodable). */
    responseBody?: Buffer;
    /** Why a body with bytes is not there to judge: too large (as it passed, or once decompressed), or not decodable. */
    requestBodyNotKept?: BodyNotKept;
    responseBodyNotKept?: BodyNotKept;
    /** Bytes of each body as they passed on the wire (encoded). */
    requestBytes: number;
    responseBytes: number;
    /** Milliseconds to the answer's headers, and from them to its last byte. */
    waitMs: number;
    receiveMs: number;
  };
}

interface BodyNotKept {
  kind: 'too large' | 'not decodable';
  /** `268435456 bytes as it passed, over the 10485760 the proxy keeps`, or the decoder's complaint. */
  why: string;
}

export interface PassedExchangeSink {
  add(exchange: PassedExchange): void;
}

export interface ProxyCounts {
  /** Exchanges passed whole and handed to the sinks. */
  exchanges: number;
  /** Requests answered 502 by the proxy (target unreachable) or whose answer the target cut off. */
  upstreamErrors: number;
  /** The first few upstream errors, for the report: `GET /v3/calls: connect ECONNREFUSED 127.0.0.1:9`. */
  upstreamErrorSamples: string[];
  /** Requests the target did not answer in time, by the wait that ran out: answered 504, or cut off if the answer had begun. Not judged. */
  timeouts: Record<UpstreamWait, number>;
  /** The first few, for the report: `did not begin its answer to GET /v3/calls within 30000 ms of the request (…)`. */
  timeoutSamples: string[];
  /** Requests refused with a 400: a request target the proxy would have had to give another meaning. Not forwarded, not judged. */
  refused: number;
  refusedSamples: string[];
  /**
   * Requests that reached the target as it closed a connection it had kept alive, before any byte of
   * an answer: the client's connection closed likewise, with no answer, so that the client can send
   * it again as it would have directly. Not judged.
   */
  keptAliveClosed: number;
  /** Exchanges the client gave up on before it had the whole answer (the connection reset after the last byte included): not judged. */
  clientAborts: number;
  /** Exchanges with a body too large to judge (over the bound as it passed, or once decompressed): judged on their status and headers alone. */
  bodiesTooLarge: number;
  /** Exchanges with a body that could not be decompressed as its Content-Encoding says: judged on their status and headers alone. */
  bodiesNotDecodable: number;
  /** Exchanges still in flight when the bounded wait at stop ran out: cut, not judged. */
  cutAtStop: number;
  /** Exchanges a sink threw on (a bug of the sink; the traffic was not affected). */
  sinkErrors: number;
  /**
   * The credential headers (lower case: apikey, authorization, …) the requests and answers carried,
   * judged or not: the reports name what they kept out, even when no exchange carrying it was judged.
   */
  credentialHeaders: string[];
}

export interface JudgingProxy {
  /** Where it listens: `http://127.0.0.1:8089`. */
  address: string;
  /** The address a client takes as its base URL: the address with the target's path (`http://127.0.0.1:8089/v3`). */
  base: string;
  /** The base URL for the chat service: the address with the chat target's path (`base` without a chat target). */
  chatBase: string;
  counts(): ProxyCounts;
  /** Exchanges under way now. */
  inFlight(): number;
  /** Ends the wait of a stop under way at once: the exchanges still in flight are cut. */
  hurry(): void;
  /**
   * Stops accepting, lets exchanges in flight finish (at most `graceMs`, then cuts them), and
   * resolves once every finished exchange has reached the sinks.
   */
  stop(graceMs?: number): Promise<ProxyCounts>;
}

export interface JudgingProxyOptions {
  /** The target's base URL (http or https); its path is only what `base` shows: request paths pass unchanged. */
  target: URL;
  /** The chat service's base URL, when the chat service is elsewhere: mark-unread goes there (proxy-routes.ts). */
  chatTarget?: URL;
  sinks: PassedExchangeSink[];
  /** 0 for any free port. */
  port: number;
  host?: string;
  /** How long the target may take to connect, to begin its answer, and between two pieces of it (DEFAULT_UPSTREAM_TIMEOUTS). */
  timeouts?: Partial<UpstreamTimeouts>;
  /**
   * Which exchanges reach the sinks when the judge cannot take them all (proxy-sampling.ts): one that
   * does not want a connection's exchange gets none of its bodies kept, and is told it passed.
   * Without one, every exchange passed whole reaches the sinks.
   */
  sampler?: { wants(socket: Socket): boolean; passed(judged: boolean): void };
  /**
   * Whether the exchanges carry their bodies as text too (bodyText), beside the bytes (default true).
   * A sink that hands them to another thread, which rebuilds the texts there, saves the copy.
   */
  bodyTexts?: boolean;
}

const DEFAULT_STOP_GRACE_MS = 10_000;

export async function startJudgingProxy(options: JudgingProxyOptions): Promise<JudgingProxy> {
  const { sinks } = options;
  const timeouts: UpstreamTimeouts = { ...DEFAULT_UPSTREAM_TIMEOUTS, ...options.timeouts };
  const routes = new Routes({ calls: options.target, ...(options.chatTarget && { chat: options.chatTarget }) });
  const ledger = new ProxyLedger(sinks);
  const { counts, clients } = ledger;
  const settings = { options, routes, timeouts, ledger };
  const listening = await listenShared(options.port, options.host ?? '127.0.0.1', (client) => void new ClientConnection(client, settings));
  const { host, port } = listening;
  const address = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let stopped: Promise<ProxyCounts> | undefined;
  let hurried = false;
  const stop = async (graceMs: number) => {
    ledger.stopping = true;
    listening.close();
    // Idle connections close at once; the others once their exchange is out (answerComplete).
    for (const [socket, { idle }] of clients) if (idle()) socket.destroy();
    const deadline = performance.now() + graceMs;
    while (ledger.inFlight > 0 && !hurried && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    counts.cutAtStop = ledger.inFlight;
    ledger.cutting = true;
    for (const socket of clients.keys()) socket.destroy();
    // The cut exchanges end (their close handlers run, the connections to the target are dropped)
    // before anything else: else each would also be counted as the target's failure.
    while (ledger.inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
    // The answers passed whole and not yet seen taken: the proxy closed their connections itself, so nothing more can show.
    ledger.receipts.settleAll();
    while (ledger.pendingDeliveries > 0) await new Promise((resolve) => setImmediate(resolve));
    return counts;
  };
  return {
    address,
    base: `${address}${options.target.pathname.replace(/\/$/, '')}`,
    chatBase: `${address}${(options.chatTarget ?? options.target).pathname.replace(/\/$/, '')}`,
    counts: () => counts,
    inFlight: () => ledger.inFlight,
    hurry: () => void (hurried = true),
    stop: (graceMs = DEFAULT_STOP_GRACE_MS) => (stopped ??= stop(graceMs)),
  };
}
