// The reference implementation of the interface: a real node:http server built by a factory, so
// tests can start as many as they like on free ports. Both services answer under one base, /v3.
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { authenticate, type ApiKeys, type Scope } from './auth.ts';
import { ApiError, errors } from './errors.ts';
import { sendAnswer } from './http.ts';
import { createStore, type Store } from './store.ts';
import { createRateLimiter } from './rate-limit.ts';
import { getCall, listCalls } from './routes/calls.ts';
import { markGroupConversationAsUnread } from './routes/conversations.ts';
import type { RequestContext, Serving } from './routes/context.ts';
import type { ReferenceAlternative } from './alternatives.ts';
import { DEFAULT_CALLS, DEFAULT_SEED, DEMO_KEYS } from './fixtures.ts';
import { DEFAULT_READINGS, type ReferenceReadings } from './readings.ts';
import type { LiveOptions } from './live/living-calls.ts';
import { DEFAULT_GET_ENVELOPE, type GetEnvelope } from './get-envelope.ts';
import type { StartedAtFilterField } from './call-index.ts';
import { NO_FAULT, type Answer, type AnsweredRequest, type Fault, type FaultHooks, type Operation } from './faults/fault.ts';
import type { AnswerAges } from './answer-age.ts';
import { createAnswerAging, type AnswerAging, type CachedRequest } from './aged-answers.ts';

export interface ReferenceOptions {
  seed?: number;
  calls?: number;
  keys?: Partial<ApiKeys>;
  /** One fault of the catalog (reference/faults/catalog.ts) to run with; none by default. */
  fault?: Fault;
  /** Requests a second the server answers before it answers 429 (reference/rate-limit.ts); no limit by default. */
  rateLimit?: number;
  /** Which reading of the call fields the specification leaves open it serves (reference/readings.ts); `entries` by default. */
  readings?: ReferenceReadings;
  /**
   * Logs new calls at `rate` a second while it runs, each moving on, and settling late over
   * `settleDelay` seconds after it ends (reference/live/; 2 to 15 by default); standing still by default.
   */
  live?: LiveOptions;
  /** The envelope Get Call answers the call in (reference/get-envelope.ts); `data-object` by default. */
  getEnvelope?: GetEnvelope;
  /**
   * Which of a call's times the startedAt filter compares; `startedAt` by default. The project's own
   * tests serve `initiatedAt`, a reading the words allow, to show the suite learns it and passes.
   */
  startedAtFilter?: StartedAtFilterField;
  /** Readings the words allow that it serves instead of its own (reference/alternatives.ts); none by default. */
  alternatives?: readonly ReferenceAlternative[];
  /**
   * Answers List Calls and Get Call, each on its own, from a replica N seconds behind or a cache
   * keeping answers N seconds (reference/answer-age.ts, ./aged-answers.ts); every answer fresh by default.
   */
  answerAge?: AnswerAges;
  /** The caches' clock in milliseconds, performance.now by default; a test passes its own to step time. */
  cacheClock?: () => number;
  /**
   * Another server's store, served through this one as a second door (two-doors.ts): both answer
   * from the same calls, moving alike. Its seed, size and readings are the other server's.
   */
  store?: Store;
}

export interface ReferenceServer {
  readonly server: Server;
  /** The data set and the read pointers; built on first use (a request, or `prepare()`). */
  readonly store: Store;
  readonly keys: ApiKeys;
  /**
   * Builds the data set now rather than on the first request. The command line calls it once it
   * has printed its address, so that a large data set is built while its client starts up.
   */
  prepare(): void;
  /** Listens on the port (0: a free one) and resolves to the base address, ending in /v3. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** Request lines and headers up to this size are read; ids of tens of thousands of characters still get an answer. */
const MAX_HEADER_BYTES = 64 * 1024;

interface Route {
  method: string;
  operation: Operation;
  run(context: RequestContext): Answer | Promise<Answer>;
}

export function createServer(options: ReferenceOptions = {}): ReferenceServer {
  const keys: ApiKeys = { ...DEMO_KEYS, ...options.keys };
  let built: { store: Store; fault: FaultHooks } | undefined;
  const ready = () => {
    if (!built) {
      const readings = options.readings ?? DEFAULT_READINGS;
      const store =
        options.store ??
        createStore(options.seed ?? DEFAULT_SEED, options.calls ?? DEFAULT_CALLS, readings, {
          live: options.live,
          startedAtField: options.startedAtFilter,
          alternatives: options.alternatives ?? [],
        });
      built = { store, fault: options.fault ? options.fault.hooks({ store, keys, readings }) : NO_FAULT };
    }
    return built;
  };
  const admit = options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit);
  const serving: Serving = { getEnvelope: options.getEnvelope ?? DEFAULT_GET_ENVELOPE, alternatives: options.alternatives ?? [] };
  const aging = createAnswerAging(options.answerAge, options.cacheClock);
  const server = createHttpServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const { store, fault } = ready();
    const request = describe(req);
    const admission = admit?.();
    if (admission) {
      for (const [name, value] of Object.entries(admission.headers)) res.setHeader(name, value);
      if (admission.refused) {
        req.resume();
        return sendAnswer(res, answerForFailure(admission.refused, serving));
      }
    }
    respond(req, request, { store, keys, fault, serving, aging })
      .then((answer) => sendAnswer(res, answer))
      .catch(() => res.destroy());
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerUnparsableRequest(error, socket, serving));

  return {
    server,
    get store() {
      return ready().store;
    },
    keys,
    prepare: () => void ready(),
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          const printable = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve(`http://${printable}:${address.port}/v3`);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The request target in origin form. A server must accept the absolute form too (RFC 9112 §3.2.2:
 * `GET http://host/v3/calls HTTP/1.1`, which a client told to use an HTTP proxy sends): its path and
 * query are taken as they are written, undecoded, as the origin form's are.
 */
export function originForm(target: string): string {
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (!absolute) return target;
  const rest = target.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

type DescribedRequest = AnsweredRequest & CachedRequest & { route: Route | undefined };

function describe(req: IncomingMessage): DescribedRequest {
  const target = originForm(req.url ?? '/');
  const queryStart = target.indexOf('?');
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const search = new URLSearchParams(queryStart === -1 ? '' : target.slice(queryStart + 1));
  const matched = route(path);
  const method = req.method ?? '';
  return {
    method,
    target,
    path,
    search,
    headers: req.headers,
    operation: matched?.method === method ? matched.operation : undefined,
    route: matched,
  };
}

/** What answers every request alike: the store, the keys, the fault, the choices served and how old answers are. */
interface Responding {
  store: Store;
  keys: ApiKeys;
  fault: FaultHooks;
  serving: Serving;
  aging: AnswerAging;
}

/**
 * The answer to one request, through the fault's last word on it. The route and the key are judged
 * now, so an unknown route or an authentication error is never an old answer; past them, the
 * operation's answer may be a replica's, or a cache's kept one (what the faulty server answered then).
 */
async function respond(req: IncomingMessage, request: DescribedRequest, responding: Responding): Promise<Answer> {
  const { keys, fault, serving, aging } = responding;
  const finish = (answer: Answer) => (fault.answer ? fault.answer(request, answer) : answer);
  let admitted: { route: Route; operation: Operation; scope: Scope };
  try {
    admitted = authorize(req, request, keys, fault);
  } catch (error) {
    return finish(answerForFailure(error, serving));
  }
  const { route, operation, scope } = admitted;
  const compute = async () => {
    // One reading of the clock per request: all of an answer shows the calls at that one moment.
    const store = responding.store.atOneMoment(aging.behind(operation));
    const run = async () => route.run({ req, search: request.search, store, scope, fault, ...serving });
    return finish(await run().catch((error: unknown) => answerForFailure(error, serving)));
  };
  return aging.answer(operation, request, compute);
}

function authorize(
  req: IncomingMessage,
  request: DescribedRequest,
  keys: ApiKeys,
  fault: FaultHooks,
): { route: Route; operation: Operation; scope: Scope } {
  const { route, operation } = request;
  if (!route || operation === undefined) throw errors.apiNotFound(request.method);
  const scope = fault.authenticate ? fault.authenticate(req, operation, () => authenticate(req, keys)) : authenticate(req, keys);
  return { route, operation, scope };
}

/** The three operations, matched on raw path segments so an encoded "/" stays inside its segment. */
function route(path: string): Route | undefined {
  const [root, first, second, third, fourth, ...rest] = path.split('/').slice(1);
  if (root !== 'v3') return undefined;
  if (first === 'calls' && second === undefined) return { method: 'GET', operation: 'listCalls', run: listCalls };
  if (first === 'calls' && third === undefined)
    return { method: 'GET', operation: 'getCall', run: (context) => getCall(context, decodeSegment(second!)) };
  if (first === 'groups' && second && third === 'conversation' && fourth === 'read' && rest.length === 0) {
    return {
      method: 'DELETE',
      operation: 'markGroupConversationAsUnread',
      run: (context) => markGroupConversationAsUnread(context, decodeSegment(second)),
    };
  }
  return undefined;
}

/** A segment that is not valid percent-encoding is taken literally: it names an id that does not exist. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const flatErrors = (serving: Serving) => serving.alternatives.includes('errors-flat');

function answerForFailure(error: unknown, serving: Serving): Answer {
  if (error instanceof ApiError) return { status: error.status, body: error.toBody(flatErrors(serving)) };
  // A bug in the reference: say so plainly rather than hang or crash the process.
  return {
    status: 500,
    body: new ApiError(500, 'ERR_INTERNAL', 'The reference implementation failed on this request.').toBody(flatErrors(serving)),
  };
}

/** Requests node:http cannot parse (oversized headers, malformed request lines) still get a JSON error. */
function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Socket, serving: Serving): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify(
    new ApiError(
      status,
      'ERR_BAD_REQUEST',
      tooLarge ? 'The request line and headers are too large.' : 'The request could not be parsed.',
    ).toBody(flatErrors(serving)),
  );
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
