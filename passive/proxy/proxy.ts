// The judging proxy: a pass-through reverse proxy that a team puts between its own app, SDK or tests
// and the target, and that judges the traffic it passes. What passes is never altered or held: each
// client connection gets a connection of its own to the target, and the bytes pass both ways as they
// come (only Host is the target's, and the headers addressed to the proxy stay with it); the proxy
// reads them only to know where each exchange begins and ends (proxy-wire.ts), keeps a copy of each
// body on the side, and hands each exchange to the sinks (the judge, the HAR writer) after its
// answer has been sent and the client has taken it (proxy-receipt.ts). A target that cannot be
// reached gets the client a 502 from the proxy, and one that does not answer in time a 504
// (proxy-deadline.ts): counted, never judged. The request line is forwarded as received, or refused
// with a 400 (proxy-request-target.ts), never given another meaning.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { BodyCapture, decodedBody, MAX_CAPTURED_BODY_BYTES } from './proxy-capture.ts';
import { DEFAULT_UPSTREAM_TIMEOUTS, timeoutReason, UpstreamDeadline, type UpstreamTimeouts, type UpstreamWait } from './proxy-deadline.ts';
import { flat, forwardedRequestHeaders } from './proxy-headers.ts';
import { listenShared } from './proxy-listen.ts';
import { Receipts } from './proxy-receipt.ts';
import { forwardedTarget, withoutQuery } from './proxy-request-target.ts';
import { Routes, type Route } from './proxy-routes.ts';
import {
  answerFraming,
  BodyReader,
  headEnd,
  keepsAlive,
  MAX_HEAD_BYTES,
  parseHead,
  parseRequestLine,
  parseStatusLine,
  requestFraming,
  serializeHead,
} from './proxy-wire.ts';
import { responseText, type RecordedExchange } from '../recorded-exchange.ts';
import { isSecretHeader } from '../redaction.ts';

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

const ERROR_SAMPLES = 5;
/** Credential header names kept: a client can make up any number of them (x-token-1, x-token-2, …). */
const MAX_CREDENTIAL_HEADERS = 50;
/** A request target is cut to this in the console and the report: it can be as long as a request line. */
const MAX_WHAT_LENGTH = 200;
const DEFAULT_STOP_GRACE_MS = 10_000;
/** Node's http server's own bounds on a client, kept: its request's head within 60 s, the whole request within 300 s. */
const HEADERS_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 300_000;
/**
 * A client connection left idle is closed after this while the proxy holds no connection to the
 * target for it (Node's keepAliveTimeout, as before). Once it holds one, the target's own keep-alive
 * decides: the proxy closes the client's connection when the target closes its own, so that the
 * client sees the target's behaviour, bounded by IDLE_CLIENT_MAX_MS.
 */
const IDLE_CLIENT_MS = 5_000;
const IDLE_CLIENT_MAX_MS = 600_000;
/** Bytes of a client's next requests read ahead while one is in flight, past which its connection is not read. */
const MAX_READ_AHEAD_BYTES = 2 ** 20;
/** Request headers that speak to the proxy or ask for another protocol, which it does not pass on. */
const NOT_FORWARDED = new Set(['proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'upgrade']);
const EMPTY = Buffer.alloc(0);

/** The target's answer, as its head said. */
interface Answer {
  status: number;
  statusText: string;
  httpVersion: string;
  fields: Array<[string, string]>;
}

/** One connection to the target, for one client connection and route. */
interface Upstream {
  socket: Socket;
  route: Route;
  connected: boolean;
  gone: boolean;
  /** The exchange whose answer it carries now. */
  exchange?: Exchange;
  /** The client's connection is not read while this one cannot take more. */
  draining: boolean;
  /** Answers it has carried whole: a connection the target closes after one has been reused, kept alive. */
  answered: number;
}

interface Exchange {
  id: number;
  startedAt: Date;
  t0: number;
  headersAt: number;
  what: string;
  method: string;
  url: string;
  requestVersion: string;
  requestFields: Array<[string, string]>;
  target: URL;
  upstream: Upstream;
  sampledIn: boolean;
  requestCopy: BodyCapture;
  responseCopy: BodyCapture;
  deadline: UpstreamDeadline;
  requestBody: BodyReader;
  requestDone: boolean;
  /** The answer's head as it comes, until it is whole. */
  answerHead: Buffer;
  answer?: Answer;
  answerBody?: BodyReader;
  /** Bytes of the final answer handed to the client (a 502 or 504 can no longer be sent). */
  begun: boolean;
  /** The answer's last byte handed to the client's connection. */
  answered: boolean;
  /** Counted out of the exchanges in flight (passed whole, or not). */
  settled: boolean;
  broken?: 'target' | 'client';
  /** Both connections close once the answer is out: the target's or the client's headers said so, or the framing needs it. */
  closeAfter: boolean;
}

export async function startJudgingProxy(options: JudgingProxyOptions): Promise<JudgingProxy> {
  const { sinks } = options;
  const timeouts: UpstreamTimeouts = { ...DEFAULT_UPSTREAM_TIMEOUTS, ...options.timeouts };
  const routes = new Routes({ calls: options.target, ...(options.chatTarget && { chat: options.chatTarget }) });
  const counts: ProxyCounts = {
    exchanges: 0,
    upstreamErrors: 0,
    upstreamErrorSamples: [],
    timeouts: { connect: 0, firstByte: 0, idle: 0 },
    timeoutSamples: [],
    refused: 0,
    refusedSamples: [],
    keptAliveClosed: 0,
    clientAborts: 0,
    bodiesTooLarge: 0,
    bodiesNotDecodable: 0,
    cutAtStop: 0,
    sinkErrors: 0,
    credentialHeaders: [],
  };
  let sequence = 0;
  let inFlight = 0;
  let pendingDeliveries = 0;
  let stopping = false;
  // Set when a stop cuts the exchanges still in flight: they are counted as cut, not as the client's aborts.
  let cutting = false;
  const receipts = new Receipts();
  /** The open client connections, and how to close each when it is idle. */
  const clients = new Map<Socket, { idle: () => boolean }>();

  // The exchange is built (bodies joined and decoded) and judged on a later turn, never before the answer is out.
  const deliver = (build: () => PassedExchange) => {
    pendingDeliveries += 1;
    setImmediate(() => {
      pendingDeliveries -= 1;
      const exchange = build();
      const notKept = [exchange.passed.requestBodyNotKept?.kind, exchange.passed.responseBodyNotKept?.kind];
      if (notKept.includes('too large')) counts.bodiesTooLarge += 1;
      else if (notKept.includes('not decodable')) counts.bodiesNotDecodable += 1;
      for (const sink of sinks) {
        try {
          sink.add(exchange);
        } catch (error) {
          counts.sinkErrors += 1;
          process.stderr.write(`judging proxy: ${exchange.source} could not be recorded: ${(error as Error).message}\n`);
        }
      }
    });
  };

  const sample = (samples: string[], text: string) => samples.length < ERROR_SAMPLES && samples.push(text);
  const upstreamFailed = (what: string, error: Error) => {
    counts.upstreamErrors += 1;
    sample(counts.upstreamErrorSamples, `${what}: ${error.message}`);
  };
  const credentials = new Set<string>();
  const noteCredentials = (fields: ReadonlyArray<[string, string]>) => {
    for (const [field] of fields) {
      if (credentials.size >= MAX_CREDENTIAL_HEADERS) return;
      const name = field.toLowerCase();
      if (credentials.has(name) || !isSecretHeader(name)) continue;
      credentials.add(name);
      counts.credentialHeaders.push(name);
    }
  };

  /** One client connection: its requests in turn, each on this connection's own connection to its target. */
  const serve = (client: Socket) => {
    client.setNoDelay(true);
    let pending: Buffer = EMPTY;
    let current: Exchange | undefined;
    /** Exchanges whose last byte was handed to the client's connection, not yet to the kernel. */
    const unflushed = new Set<Exchange>();
    const upstreams = new Map<Route, Upstream>();
    let ending = false;
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    let waitingFor: 'head' | 'request' | 'idle' | undefined;
    let readAheadPaused = false;

    const idle = () => current === undefined && unflushed.size === 0 && pending.length === 0;
    clients.set(client, { idle });

    const arm = (wait: 'head' | 'request' | 'idle') => {
      if (waitingFor === wait && timer) return;
      clearTimeout(timer);
      waitingFor = wait;
      const ms =
        wait === 'head'
          ? HEADERS_TIMEOUT_MS
          : wait === 'request'
            ? REQUEST_TIMEOUT_MS
            : upstreams.size > 0
              ? IDLE_CLIENT_MAX_MS
              : IDLE_CLIENT_MS;
      timer = setTimeout(() => {
        timer = undefined;
        if (wait === 'idle') return void client.end();
        // Node's server answered a request that took too long to come 408; so does the proxy.
        // The client did not send its whole request in time: its exchange is its own abort.
        if (current && !current.begun) {
          closeUpstream(current.upstream);
          if (settle(current, 'client') && !cutting) counts.clientAborts += 1;
        }
        if (current?.begun) return void client.destroy();
        answerPlain(client, 408, 'judging proxy: the request did not come whole in time\n');
        ending = true;
      }, ms);
    };
    const disarm = () => {
      clearTimeout(timer);
      timer = undefined;
      waitingFor = undefined;
    };

    /** The exchange leaves the count in flight, once: `broken` says why it was not passed whole. */
    const settle = (exchange: Exchange, broken?: 'target' | 'client') => {
      if (broken && !exchange.broken) exchange.broken = broken;
      exchange.deadline.clear();
      if (current === exchange) current = undefined;
      unflushed.delete(exchange);
      if (exchange.settled) return false;
      exchange.settled = true;
      inFlight -= 1;
      return true;
    };

    const closeUpstream = (upstream: Upstream) => {
      upstream.gone = true;
      upstream.exchange = undefined;
      if (upstreams.get(upstream.route) === upstream) upstreams.delete(upstream.route);
      upstream.socket.destroy();
    };

    /** The proxy's own answer, and the connection closed after it: nothing more can follow it safely. */
    const answerAndClose = (status: number, body: string) => {
      ending = true;
      answerPlain(client, status, body);
    };

    const failBeforeAnswer = (exchange: Exchange, error: Error, failure = 'could not be reached for') => {
      if (exchange.broken || cutting) return;
      closeUpstream(exchange.upstream);
      settle(exchange, 'target');
      upstreamFailed(exchange.what, error);
      if (exchange.begun) return void client.destroy();
      answerAndClose(502, `judging proxy: the target ${exchange.target.origin} ${failure} ${exchange.what}: ${error.message}\n`);
    };

    const toClient = (bytes: Buffer, exchange: Exchange, last: boolean) => {
      const more = client.write(bytes, last ? (error) => flushed(exchange, error) : undefined);
      const upstream = exchange.upstream;
      if (!more && !upstream.draining) {
        upstream.draining = true;
        upstream.socket.pause();
        client.once('drain', () => {
          upstream.draining = false;
          if (!upstream.gone) upstream.socket.resume();
        });
      }
    };

    const toUpstream = (upstream: Upstream, bytes: Buffer) => {
      if (upstream.socket.write(bytes)) return;
      client.pause();
      upstream.socket.once('drain', () => readAheadPaused || client.resume());
    };

    /** The answer's last byte reached the kernel: passed whole, judged once the client is seen to take it. */
    const flushed = (exchange: Exchange, error: Error | null | undefined) => {
      if (error || exchange.broken || !settle(exchange)) return;
      receipts.hold(
        client,
        () => {
          counts.exchanges += 1;
          options.sampler?.passed(exchange.sampledIn);
          if (exchange.sampledIn) deliver(() => recorded(exchange, options.bodyTexts ?? true));
        },
        () => void (counts.clientAborts += 1),
      );
    };

    const answerComplete = (exchange: Exchange) => {
      exchange.deadline.clear();
      exchange.responseCopy.seal();
      exchange.answered = true;
      const answer = exchange.answer!;
      if (
        !exchange.requestDone ||
        stopping ||
        !keepsAlive(answer.httpVersion, answer.fields) ||
        !keepsAlive(exchange.requestVersion, exchange.requestFields)
      )
        exchange.closeAfter = true;
      current = undefined;
      unflushed.add(exchange);
      exchange.upstream.answered += 1;
      if (exchange.closeAfter) {
        closeUpstream(exchange.upstream);
        ending = true;
        client.end();
        return;
      }
      exchange.upstream.exchange = undefined;
      if (readAheadPaused) {
        readAheadPaused = false;
        client.resume();
      }
      next();
    };

    /** A piece of the answer's body, after `lead` bytes of its head in the same buffer (passed on in one write with them). */
    const answerPiece = (exchange: Exchange, piece: Buffer, lead = 0) => {
      exchange.deadline.touch();
      let used: number;
      try {
        used = exchange.answerBody!.feed(lead === 0 ? piece : piece.subarray(lead));
      } catch (error) {
        closeUpstream(exchange.upstream);
        settle(exchange, 'target');
        upstreamFailed(exchange.what, new Error(`the target's answer is not framed as its headers say: ${(error as Error).message}`));
        return void client.destroy();
      }
      // Bytes past the end of the answer were never asked for: the connection to the target is not used again.
      if (lead + used < piece.length) exchange.closeAfter = true;
      const done = exchange.answerBody!.done;
      if (lead + used > 0) toClient(lead + used === piece.length ? piece : piece.subarray(0, lead + used), exchange, done);
      if (done) answerComplete(exchange);
    };

    const fromUpstream = (upstream: Upstream, chunk: Buffer) => {
      const exchange = upstream.exchange;
      // Bytes no request asked for (a target's 408 on an idle connection, say): that connection is done.
      if (exchange === undefined || exchange.broken) return void closeUpstream(upstream);
      if (exchange.answer) return answerPiece(exchange, chunk);
      const head = exchange.answerHead.length === 0 ? chunk : Buffer.concat([exchange.answerHead, chunk]);
      const end = headEnd(head);
      if (end === -1) {
        if (head.length > MAX_HEAD_BYTES * 4)
          return failBeforeAnswer(exchange, new Error('its head is over 64 KiB'), 'sent an answer that cannot be passed on for');
        exchange.answerHead = head;
        return;
      }
      exchange.answerHead = EMPTY;
      const parsed = parseHead(head.toString('latin1', 0, end - 4));
      const statusLine = 'error' in parsed ? undefined : parseStatusLine(parsed.startLine);
      if ('error' in parsed || statusLine === undefined)
        return failBeforeAnswer(
          exchange,
          new Error(
            'error' in parsed ? parsed.error : `a status line that is not HTTP/1.x: ${JSON.stringify(parsed.startLine.slice(0, 60))}`,
          ),
          'sent an answer that cannot be passed on for',
        );
      const rest = head.subarray(end);
      if (statusLine.status < 200) {
        // No upgrade is asked for (Upgrade is not passed on): a 101 is not an answer the proxy can pass.
        if (statusLine.status === 101)
          return failBeforeAnswer(
            exchange,
            new Error('101 Switching Protocols, not asked for'),
            'sent an answer that cannot be passed on for',
          );
        // An interim answer (100 Continue, 103 Early Hints) passes on as it came; the final one follows.
        client.write(head.subarray(0, end));
        if (rest.length > 0) fromUpstream(upstream, rest);
        return;
      }
      const framing = answerFraming(exchange.method, statusLine.status, parsed.fields);
      if ('error' in framing) return failBeforeAnswer(exchange, new Error(framing.error), 'sent an answer that cannot be passed on for');
      exchange.answer = {
        status: statusLine.status,
        statusText: statusLine.statusText,
        httpVersion: statusLine.version,
        fields: parsed.fields,
      };
      exchange.headersAt = performance.now();
      exchange.deadline.answeredNow();
      noteCredentials(parsed.fields);
      if (framing.kind === 'until close') exchange.closeAfter = true;
      exchange.answerBody = new BodyReader(framing, (part) => exchange.responseCopy.add(part));
      exchange.begun = true;
      if (exchange.answerBody.done) {
        // No body: bytes after the head were never asked for, and the connection to the target is not used again.
        if (rest.length > 0) exchange.closeAfter = true;
        toClient(head.subarray(0, end), exchange, true);
        return answerComplete(exchange);
      }
      // The head and what came of the body with it, in one write.
      answerPiece(exchange, head, end);
    };

    const upstreamGone = (upstream: Upstream, error?: NodeJS.ErrnoException) => {
      if (upstream.gone) return;
      const exchange = upstream.exchange;
      closeUpstream(upstream);
      if (exchange === undefined) {
        // The target closed an idle connection: so does the proxy the client's, as the target would have.
        if (idle() && !closed) client.end();
        return;
      }
      if (exchange.broken || cutting) return;
      if (exchange.answerBody?.closed()) {
        // An answer framed by the close of its connection: whole.
        toClient(EMPTY, exchange, true);
        return answerComplete(exchange);
      }
      const reset = error?.code === 'ECONNRESET';
      if (
        !exchange.begun &&
        (error === undefined || reset) &&
        upstream.answered > 0 &&
        exchange.answerHead.length === 0 &&
        exchange.answer === undefined
      ) {
        // The target closed (or reset) a connection it had kept alive just as this request reached
        // it: the race every keep-alive client meets, and meets as a connection closed (or reset)
        // with no answer, which it may send again on a new one (an idempotent request on a reused
        // connection). So the proxy closes (or resets) the client's connection with no answer, as the
        // target did, rather than answer 502.
        settle(exchange, 'target');
        counts.keptAliveClosed += 1;
        ending = true;
        if (reset) client.resetAndDestroy();
        else client.end();
        return;
      }
      if (!exchange.begun)
        return failBeforeAnswer(
          exchange,
          error ?? new Error('the target closed the connection without answering (socket hang up)'),
          error && !upstream.connected ? 'could not be reached for' : 'did not answer',
        );
      // An answer the target cut off half-way is cut off for the client too, never completed by the proxy.
      settle(exchange, 'target');
      upstreamFailed(exchange.what, error ?? new Error('the target closed the connection before the end of its answer'));
      client.destroy();
    };

    const upstreamFor = (route: Route): Upstream => {
      const open = upstreams.get(route);
      if (open && !open.gone) return open;
      const upstream: Upstream = { socket: route.connect(), route, connected: false, gone: false, draining: false, answered: 0 };
      upstreams.set(route, upstream);
      const { socket } = upstream;
      socket.setNoDelay(true);
      socket.once(route.secure ? 'secureConnect' : 'connect', () => {
        upstream.connected = true;
        upstream.exchange?.deadline.connectedNow();
      });
      socket.on('data', (chunk: Buffer) => fromUpstream(upstream, chunk));
      socket.on('end', () => upstreamGone(upstream));
      socket.on('error', (error) => upstreamGone(upstream, error));
      socket.on('close', () => upstreamGone(upstream));
      return upstream;
    };

    const requestDone = (exchange: Exchange) => {
      exchange.requestDone = true;
      exchange.requestCopy.seal();
      exchange.deadline.sentNow();
      if (current === exchange) disarm();
    };

    const requestPiece = (exchange: Exchange, piece: Buffer) => {
      let used: number;
      try {
        used = exchange.requestBody.feed(piece);
      } catch (error) {
        closeUpstream(exchange.upstream);
        settle(exchange, 'client');
        counts.clientAborts += 1;
        if (exchange.begun) return void client.destroy();
        return answerAndClose(
          400,
          `judging proxy: refused ${exchange.what}: its body is not framed as its headers say: ${(error as Error).message}\n`,
        );
      }
      if (used > 0 && !exchange.upstream.gone) toUpstream(exchange.upstream, used === piece.length ? piece : piece.subarray(0, used));
      if (exchange.requestBody.done) requestDone(exchange);
      if (used < piece.length) pending = pending.length === 0 ? piece.subarray(used) : Buffer.concat([pending, piece.subarray(used)]);
    };

    /** The next request, once its head has come whole. */
    const next = () => {
      if (current || ending || closed) return;
      // Empty lines before a request line are allowed, and skipped.
      while (pending.length >= 2 && pending[0] === 13 && pending[1] === 10) pending = pending.subarray(2);
      if (pending.length === 0) return arm('idle');
      const end = headEnd(pending);
      if (end === -1) {
        if (pending.length > MAX_HEAD_BYTES) return answerAndClose(431, 'judging proxy: refused a request whose head is over 16 KiB\n');
        return arm('head');
      }
      const parsed = parseHead(pending.toString('latin1', 0, end - 4));
      const rest = pending.subarray(end);
      pending = EMPTY;
      const line = 'error' in parsed ? undefined : parseRequestLine(parsed.startLine);
      if ('error' in parsed || line === undefined)
        return answerAndClose(
          400,
          `judging proxy: refused a request that is not HTTP/1.x: ${'error' in parsed ? parsed.error : 'its request line is not "METHOD target HTTP/1.x"'}\n`,
        );
      const fields = parsed.fields;
      const framing = requestFraming(fields);
      const hosts = fields.filter(([name]) => name.toLowerCase() === 'host').length;
      // A client that gave up before reading its answers would not send another request.
      receipts.nextRequest(client);
      noteCredentials(fields);
      const requestTarget = line.target;
      // Without its query, which may carry a key: this goes into the console and the report.
      const what = `${line.method} ${withoutQuery(requestTarget).slice(0, MAX_WHAT_LENGTH)}`;
      if ('error' in framing) return answerAndClose(400, `judging proxy: refused ${what}: ${framing.error}\n`);
      if (hosts > 1 || (hosts === 0 && line.version === '1.1'))
        return answerAndClose(400, `judging proxy: refused ${what}: ${hosts === 0 ? 'no Host header' : 'more than one Host header'}\n`);
      const route = routes.pick(requestTarget);
      const { target } = route;
      const forwarded = forwardedTarget(requestTarget, target, routes.origins);
      if ('refused' in forwarded) {
        counts.refused += 1;
        sample(counts.refusedSamples, `${what}: ${forwarded.refused}`);
        return answerAndClose(400, `judging proxy: refused ${what}: ${forwarded.refused}\n`);
      }
      inFlight += 1;
      // An exchange the sampler leaves out keeps no copy of its bodies: it costs the traffic nothing more.
      const sampledIn = options.sampler?.wants(client) ?? true;
      const upstream = upstreamFor(route);
      const exchange: Exchange = {
        id: (sequence += 1),
        startedAt: new Date(),
        t0: performance.now(),
        headersAt: 0,
        what,
        method: line.method,
        url: forwarded.url,
        requestVersion: line.version,
        requestFields: fields,
        target,
        upstream,
        sampledIn,
        requestCopy: new BodyCapture(sampledIn ? MAX_CAPTURED_BODY_BYTES : 0),
        responseCopy: new BodyCapture(sampledIn ? MAX_CAPTURED_BODY_BYTES : 0),
        // The target ran out a wait: a 504 that says which and how long, or, once the answer has begun, the answer cut off.
        deadline: new UpstreamDeadline(
          timeouts,
          () => client.writableNeedDrain,
          (wait, ms) => {
            if (exchange.broken) return;
            counts.timeouts[wait] += 1;
            const reason = timeoutReason(wait, ms, what);
            sample(counts.timeoutSamples, reason);
            closeUpstream(upstream);
            settle(exchange, 'target');
            if (exchange.begun) return void client.destroy();
            answerAndClose(504, `judging proxy: the target ${target.origin} ${reason}\n`);
          },
        ),
        requestBody: new BodyReader(framing, (part) => exchange.requestCopy.add(part)),
        requestDone: false,
        answerHead: EMPTY,
        begun: false,
        answered: false,
        settled: false,
        closeAfter: false,
      };
      current = exchange;
      upstream.exchange = exchange;
      if (upstream.connected) exchange.deadline.connectedNow();
      arm('request');
      // The head as received, but for Host (the target's) and the headers addressed to the proxy.
      const wire: Array<[string, string]> = fields
        .filter(([name]) => !NOT_FORWARDED.has(name.toLowerCase()))
        .map(([name, value]) => (name.toLowerCase() === 'host' ? [name, target.host] : [name, value]));
      if (hosts === 0) wire.unshift(['Host', target.host]);
      toUpstream(upstream, serializeHead(parsed.startLine, wire));
      if (exchange.requestBody.done) requestDone(exchange);
      if (rest.length > 0) {
        if (exchange.requestDone) pending = rest;
        else requestPiece(exchange, rest);
      }
    };

    client.on('data', (chunk: Buffer) => {
      if (ending || closed) return;
      if (current && !current.requestDone) return requestPiece(current, chunk);
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (current) {
        if (pending.length > MAX_READ_AHEAD_BYTES && !readAheadPaused) {
          readAheadPaused = true;
          client.pause();
        }
        return;
      }
      next();
    });
    // The client closed its side: as Node's server did, what it had not had whole is given up, and the connection closed.
    client.on('end', () => {
      if (current) return void client.destroy();
      client.end();
    });
    client.on('error', () => undefined);
    client.on('close', () => {
      closed = true;
      disarm();
      clients.delete(client);
      for (const exchange of [...unflushed, ...(current ? [current] : [])]) {
        // The client went away first (or the proxy is stopping and cut it): the target's answer is dropped with it, and not judged.
        if (settle(exchange, 'client') && !cutting) counts.clientAborts += 1;
      }
      for (const upstream of [...upstreams.values()]) closeUpstream(upstream);
    });
    arm('idle');
  };

  const listening = await listenShared(options.port, options.host ?? '127.0.0.1', serve);
  const { host, port } = listening;
  const address = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let stopped: Promise<ProxyCounts> | undefined;
  let hurried = false;
  const stop = async (graceMs: number) => {
    stopping = true;
    listening.close();
    // Idle connections close at once; the others once their exchange is out (answerComplete).
    for (const [socket, { idle }] of clients) if (idle()) socket.destroy();
    const deadline = performance.now() + graceMs;
    while (inFlight > 0 && !hurried && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    counts.cutAtStop = inFlight;
    cutting = true;
    for (const socket of clients.keys()) socket.destroy();
    // The cut exchanges end (their close handlers run, the connections to the target are dropped)
    // before anything else: else each would also be counted as the target's failure.
    while (inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
    // The answers passed whole and not yet seen taken: the proxy closed their connections itself, so nothing more can show.
    receipts.settleAll();
    while (pendingDeliveries > 0) await new Promise((resolve) => setImmediate(resolve));
    return counts;
  };
  return {
    address,
    base: `${address}${options.target.pathname.replace(/\/$/, '')}`,
    chatBase: `${address}${(options.chatTarget ?? options.target).pathname.replace(/\/$/, '')}`,
    counts: () => counts,
    inFlight: () => inFlight,
    hurry: () => void (hurried = true),
    stop: (graceMs = DEFAULT_STOP_GRACE_MS) => (stopped ??= stop(graceMs)),
  };
}

/** An answer of the proxy's own, in plain text, after which it closes the connection: why it refused, could not reach, or gave up on the target. */
function answerPlain(client: Socket, status: number, body: string): void {
  const bytes = Buffer.byteLength(body);
  client.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${bytes}\r\nconnection: close\r\n\r\n${body}`,
  );
}

const headerValue = (pairs: ReadonlyArray<[string, string]>, name: string) => pairs.find(([key]) => key.toLowerCase() === name)?.[1];

function recorded(exchange: Exchange, bodyTexts: boolean): PassedExchange {
  const answer = exchange.answer!;
  const { requestCopy, responseCopy } = exchange;
  // As the judge has always seen them: end to end, with the target's Host.
  const requestHeaders = forwardedRequestHeaders(flat(exchange.requestFields), exchange.target.host);
  const responseHeaders = answer.fields;
  const request = judgedBody(requestCopy, headerValue(requestHeaders, 'content-encoding'));
  const response = judgedBody(responseCopy, headerValue(responseHeaders, 'content-encoding'));
  // An empty request body is no body; an empty answer is one (a 204's, a HEAD's), and judged as such.
  const requestBody = request?.body && request.body.length > 0 ? request.body : undefined;
  const responseBody = response?.body;
  const endedAt = performance.now();
  const timing = { waitMs: exchange.headersAt - exchange.t0, receiveMs: endedAt - exchange.headersAt };
  return {
    source: `proxy, exchange ${exchange.id}`,
    startedAt: exchange.startedAt.toISOString(),
    request: {
      method: exchange.method,
      url: exchange.url,
      headers: requestHeaders,
      ...(requestBody && bodyTexts && { bodyText: requestBody.toString('utf8') }),
    },
    response: {
      status: answer.status,
      headers: responseHeaders,
      ...(responseBody && bodyTexts && responseText(responseBody)),
    },
    durationMs: timing.waitMs + timing.receiveMs,
    passed: {
      httpVersion: `HTTP/${answer.httpVersion}`,
      statusText: answer.statusText,
      ...(requestBody && { requestBody }),
      ...(responseBody && { responseBody }),
      ...(request?.notKept && { requestBodyNotKept: request.notKept }),
      ...(response?.notKept && { responseBodyNotKept: response.notKept }),
      requestBytes: requestCopy.length,
      responseBytes: responseCopy.length,
      ...timing,
    },
  };
}

/** A body as the judge gets it: its bytes decoded, or why it is not there (undefined: no bytes at all). */
function judgedBody(copy: BodyCapture, contentEncoding: string | undefined): { body?: Buffer; notKept?: BodyNotKept } | undefined {
  if (copy.overflowed)
    return {
      notKept: { kind: 'too large', why: `${copy.length} bytes as it passed, over the ${MAX_CAPTURED_BODY_BYTES} the proxy keeps` },
    };
  const bytes = copy.bytes()!;
  if (bytes.length === 0) return { body: bytes };
  const decoded = decodedBody(bytes, contentEncoding);
  return 'body' in decoded ? { body: decoded.body } : { notKept: { kind: decoded.notKept, why: decoded.why } };
}
