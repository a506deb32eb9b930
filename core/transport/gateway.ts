// A loopback gateway in each worker, between Playwright's request context and a target whose keys
// are secret, for runs whose requests go through the request context (tracing on: wire.ts). It
// exists for two things the request context cannot do:
// - Keys never pass through Playwright. The suite sends placeholders ($API_KEY); the gateway puts
//   the key in on the way out. Playwright's traces, its call logs in error messages and its HTML
//   report therefore never hold a key.
// - An answer's size and time are bounded. Playwright buffers a whole body, however large, and
//   inflates gzip without limit; the gateway reads at most MAX_BODY_BYTES (after decoding), within
//   REQUEST_TIMEOUT_MS (target-http.ts, as the direct wire does), and otherwise answers with a
//   failure the suite turns into a clear verdict.
// Failures come back as status 502 with the x-conformance-gateway header naming them; the header is
// removed from every real answer, so a target cannot forge one.
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import type { SuiteConfig } from '../run/config.ts';
import { resolveSecretToken } from './secret-tokens.ts';
import { echoRedactor, type EchoRedactor } from './echoed-secrets.ts';
import { exchangeWithTarget, HOP_BY_HOP, keepAliveAgents, type Agents, type TargetFailure } from './target-http.ts';

export const GATEWAY_HEADER = 'x-conformance-gateway';
const GATEWAY_ONLY: ReadonlySet<string> = new Set([GATEWAY_HEADER]);

/** What went wrong between the gateway and the target. */
export type GatewayFailure = TargetFailure;

/**
 * Every target goes through the gateway but one: the embedded reference with its published demo
 * keys, whose keys are no secret and whose answers are the suite's own.
 */
export function gatewayNeeded(config: SuiteConfig): boolean {
  const demoKeys =
    config.apiKey === DEMO_KEYS.fullAccess && (config.restrictedApiKey === undefined || config.restrictedApiKey === DEMO_KEYS.readOnly);
  return config.target.kind === 'remote' || !demoKeys;
}

export interface GatewayOptions {
  /** Placeholder → key: a header whose value is a token (secret-tokens.ts) is sent with what it stands for. */
  secrets: ReadonlyMap<string, string>;
  maxBodyBytes: number;
  timeoutMs: number;
}

export interface Gateway {
  /**
   * The loopback address that carries a request for `url`. With `onWire`, an address for one
   * request: `onWire` is called once the gateway has written it to the target, never before, and
   * `release` forgets it (call it when the request is done, whether or not it got that far).
   */
  route(url: string): string;
  route(url: string, onWire: () => void): { url: string; release(): void };
  close(): Promise<void>;
}

/** Requests the suite sends are small; anything larger is not the suite's. */
const MAX_REQUEST_BODY_BYTES = 1 << 20;

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const agents = keepAliveAgents(8);
  // What to call when the request routed under each number has been written to the target.
  const marks = new Map<number, () => void>();
  const redactEchoes = echoRedactor(options.secrets);
  let routed = 0;
  const server = createServer((incoming, outgoing) => {
    readRequestBody(incoming)
      .then((body) => forward(incoming, body, outgoing, options, agents, marks, redactEchoes))
      .catch((error: unknown) =>
        answerFailure(outgoing, 'bad-response', `The gateway could not read the suite's request: ${String(error)}`),
      );
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const routeOf = (url: string, prefix = '') => {
    const target = new URL(url);
    return `${origin}${prefix}/${target.protocol.slice(0, -1)}/${target.host}${target.pathname}${target.search}`;
  };
  function route(url: string): string;
  function route(url: string, onWire: () => void): { url: string; release(): void };
  function route(url: string, onWire?: () => void): string | { url: string; release(): void } {
    if (onWire === undefined) return routeOf(url);
    const number = (routed += 1);
    marks.set(number, onWire);
    return { url: routeOf(url, `/${MARKED}/${number}`), release: () => marks.delete(number) };
  }
  return {
    route,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agents.destroy();
    },
  };
}

function readRequestBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BODY_BYTES) incoming.destroy(new Error('request body too large'));
      else chunks.push(chunk);
    });
    incoming.on('end', () => resolve(Buffer.concat(chunks)));
    incoming.on('error', reject);
  });
}

/** The first segment of a route for one request, whose number follows (Gateway.route). */
const MARKED = 'marked';

function forward(
  incoming: IncomingMessage,
  body: Buffer,
  outgoing: ServerResponse,
  options: GatewayOptions,
  agents: Agents,
  marks: ReadonlyMap<number, () => void>,
  redactEchoes: EchoRedactor,
): void {
  const match = new RegExp(`^(?:/${MARKED}/(\\d+))?/(https?)/([^/]+)(/.*)?$`).exec(incoming.url ?? '');
  if (!match) return answerFailure(outgoing, 'bad-response', `The gateway cannot route ${incoming.url}`);
  const [, number, scheme, host, path = '/'] = match as unknown as [
    string,
    string | undefined,
    'http' | 'https',
    string,
    string | undefined,
  ];
  const onWire = number === undefined ? undefined : marks.get(Number(number));
  const target = new URL(`${scheme}://${host}${path}`);

  // From the raw headers, so that each name keeps its letter case: the suite checks that a target
  // accepts `APIKEY` as well as `apikey`, which Node's parsed (lower-cased) headers would hide.
  const headers: OutgoingHttpHeaders = {};
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
    const name = incoming.rawHeaders[index]!;
    if (HOP_BY_HOP.has(name.toLowerCase())) continue;
    headers[name] = resolveSecretToken(incoming.rawHeaders[index + 1]!, options.secrets);
  }
  // A target's own header by the gateway's name is dropped: a target cannot forge a failure.
  void exchangeWithTarget(target, incoming.method ?? 'GET', headers, body, options, agents, GATEWAY_ONLY, onWire).then((outcome) => {
    if (outcome.kind === 'failure') return answerFailure(outgoing, outcome.failure, outcome.detail);
    // A key the target echoes is cut out here, before Playwright records the answer in a trace.
    const { headers: answered, body: text } = withoutEchoes(outcome.headers, outcome.body, redactEchoes);
    outgoing.writeHead(outcome.status, answered).end(text);
  });
}

/** The answer with every echo of a key replaced by its placeholder; its bytes as they were where none was echoed. */
function withoutEchoes(headers: OutgoingHttpHeaders, body: Buffer, redact: EchoRedactor): { headers: OutgoingHttpHeaders; body: Buffer } {
  const clean: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    clean[name] = typeof value === 'string' ? redact(value) : Array.isArray(value) ? value.map((item) => redact(item)) : value;
  const text = body.toString('utf8');
  const redacted = redact(text);
  if (redacted === text) return { headers: clean, body };
  const bytes = Buffer.from(redacted);
  return { headers: { ...clean, 'content-length': bytes.length }, body: bytes };
}

const failureHeaders = (failure: GatewayFailure): OutgoingHttpHeaders => ({
  [GATEWAY_HEADER]: failure,
  'content-type': 'text/plain; charset=utf-8',
});

function answerFailure(outgoing: ServerResponse, failure: GatewayFailure, detail: string): void {
  if (!outgoing.headersSent) outgoing.writeHead(502, failureHeaders(failure)).end(detail);
}
