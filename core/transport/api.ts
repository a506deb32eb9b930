// The three operations as a client over the suite's transport (Playwright's request context, with
// the write guard, budget, pacing and retries of core/transport/). Every call yields an
// Exchange; the client keeps them so a failing test can attach what it sent and received. Keys are
// sent as their placeholders ($API_KEY): only the transport puts the key itself in.
import type { APIRequestContext } from '@playwright/test';
import type { OperationId } from '../../openapi/contract.ts';
import type { SuiteConfig } from '../run/config.ts';
import { headerOf, type Exchange, type Unanswered } from './exchange.ts';
import { secretPlaceholders, Transport, type TransportAnswer } from './transport.ts';
import { isSecretToken } from './secret-tokens.ts';
import { requestContextWire } from './wire.ts';
import { inRehearsal } from '../property/rehearsal.ts';
import { parseJsonText, type ParsedJson } from './json-text.ts';
import { pathSegment } from './header-value.ts';
import type { RequestTrace } from './trace-context.ts';

export type Query = Record<string, string | number | boolean>;

export interface RequestOptions {
  /** The key to send; null sends no apikey header at all. Defaults to API_KEY. */
  apiKey?: string | null;
  /** The header name to carry the key under (its letter case), `apikey` by default. */
  apiKeyHeader?: string;
  onBehalfOf?: string;
  headers?: Record<string, string>;
}

export interface ApiHooks {
  /**
   * Called once for every answer the target sent, when the client first meets it: in a property's
   * rehearsal (rehearsal.ts) if it was rehearsed, even when fast-check's run never asks for it again
   * (its property failed first), so that the reports count every request sent.
   */
  onSent?: (exchange: Exchange) => void;
  /** Called with every exchange the test judges, as it completes: the test's verdict checks it there. */
  onExchange?: (exchange: Exchange) => void;
  /** Called once for every request that got no answer, when the client first meets its failure. */
  onUnanswered?: (request: Unanswered) => void;
}

/** Answers and failures already reported sent: a rehearsal met them, and fast-check's run meets them again. */
const reportedSent = new WeakSet<object>();

/** True the first time `met` (an answer, or the error a request failed with) is reported. */
function firstMeeting(met: unknown): boolean {
  if (typeof met !== 'object' || met === null) return true;
  if (reportedSent.has(met)) return false;
  reportedSent.add(met);
  return true;
}

export class CallsApi {
  readonly exchanges: Exchange[] = [];
  /** Each configured key and the placeholder sent, and recorded, in its place. */
  private readonly placeholders: ReadonlyMap<string, string>;
  private readonly secrets: ReadonlyMap<string, string>;
  private readonly transport: Transport;

  /** The trace every request of this client carries (trace-context.ts): none with TRACE_HEADERS=false, or when none was given. */
  readonly trace: RequestTrace | undefined;

  constructor(
    /** The worker's transport; a bare request context gets a transport of its own (self-tests). */
    transport: Transport | APIRequestContext,
    private readonly config: SuiteConfig,
    private readonly hooks: ApiHooks = {},
    /** The test's trace (or learning's): the suite always gives one; a self-test that does not sends no trace headers. */
    trace?: RequestTrace,
  ) {
    this.trace = config.traceHeaders ? trace : undefined;
    this.secrets = secretPlaceholders(config);
    this.transport =
      transport instanceof Transport
        ? transport
        : new Transport(requestContextWire(transport, undefined, this.secrets, config.requestTimeoutMs), { config });
    this.placeholders = new Map([...this.secrets].map(([placeholder, key]) => [key, placeholder]));
  }

  listCalls(query: Query = {}, options: RequestOptions = {}): Promise<Exchange> {
    const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
    const suffix = search.size > 0 ? `?${search}` : '';
    return this.send('listCalls', 'GET', `${this.base('calls')}/calls${suffix}`, undefined, options);
  }

  getCall(sessionId: string, options: RequestOptions = {}): Promise<Exchange> {
    return this.send('getCall', 'GET', `${this.base('calls')}/calls/${pathSegment(sessionId)}`, undefined, options);
  }

  markGroupConversationAsUnread(guid: string, body: unknown, options: RequestOptions = {}): Promise<Exchange> {
    const url = `${this.base('chat')}/groups/${pathSegment(guid)}/conversation/read`;
    return this.send('markGroupConversationAsUnread', 'DELETE', url, body, {
      ...options,
      headers: { 'content-type': 'application/json', ...options.headers },
    });
  }

  private base(service: 'calls' | 'chat'): string {
    const base = service === 'calls' ? this.config.callsBaseUrl : this.config.chatBaseUrl;
    if (base === undefined) throw new Error('The embedded reference server did not report its address; see the web server output above.');
    return base;
  }

  private async send(operation: OperationId, method: string, url: string, body: unknown, options: RequestOptions): Promise<Exchange> {
    const key = options.apiKey === undefined ? this.config.apiKey : options.apiKey;
    const headers: Record<string, string> = { ...options.headers };
    if (key !== null) headers[options.apiKeyHeader ?? 'apikey'] = this.placeholders.get(key) ?? key;
    if (options.onBehalfOf !== undefined) headers.onBehalfOf = options.onBehalfOf;
    // A header the test sends itself is left as it is.
    for (const [name, value] of Object.entries(this.trace?.headers() ?? {}))
      if (headerOf(headers, name) === undefined) headers[name] = value;
    // Bodies go as bytes: Playwright would re-encode a string that is not JSON (a malformed body the
    // suite sends on purpose) as a JSON string literal.
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));

    let answer;
    try {
      answer = await this.transport.send({ method, url, headers, ...(payload && { body: payload }) });
    } catch (error) {
      if (firstMeeting(error)) this.hooks.onUnanswered?.({ operation, method, url });
      throw error;
    }
    const { parsed, isJson, tooDeep } = parsedBody(answer);
    const exchange: Exchange = {
      operation,
      // As the target saw it: in a property's replay, the trace headers of its rehearsal's request.
      request: { method, url, ...this.redact({ ...headers, ...answer.traceHeaders }), ...(body !== undefined && { body }) },
      response: {
        status: answer.status,
        headers: answer.headers,
        body: parsed,
        text: answer.text,
        isJson,
        ...(tooDeep && { tooDeep }),
        ...(answer.notUtf8 && { notUtf8: true }),
      },
      durationMs: answer.durationMs,
      receivedAt: answer.receivedAt,
      ...(answer.attempts > 1 && { attempts: answer.attempts }),
    };
    if (firstMeeting(answer)) this.hooks.onSent?.(exchange);
    // A rehearsal's exchanges are judged when fast-check's run meets them again (rehearsal.ts).
    if (inRehearsal()) return exchange;
    this.exchanges.push(exchange);
    this.hooks.onExchange?.(exchange);
    return exchange;
  }

  /**
   * Tokens ($API_KEY, $API_KEY|cut:3) stay as they are; any other key the suite sent on purpose is
   * named $INVALID_KEY. The headers that now hold a variable are named, so that a curl line expands
   * these and nothing else.
   */
  private redact(sent: Record<string, string>): { headers: Record<string, string>; variableHeaders?: string[] } {
    const headers: Record<string, string> = {};
    const variableHeaders: string[] = [];
    for (const [name, value] of Object.entries(sent)) {
      const invalidKey = name.toLowerCase() === 'apikey' && !isSecretToken(value, this.secrets);
      headers[name] = invalidKey ? '$INVALID_KEY' : value;
      if (invalidKey || isSecretToken(value, this.secrets)) variableHeaders.push(name);
    }
    return { headers, ...(variableHeaders.length > 0 && { variableHeaders }) };
  }
}

/**
 * Each answer's body parsed once: a property's rehearsal and fast-check's run meet the same answer
 * (rehearsal.ts), and pages of a hundred calls are the larger part of what a run parses.
 */
const parsedBodies = new WeakMap<TransportAnswer, ParsedJson>();

function parsedBody(answer: TransportAnswer): ParsedJson {
  let body = parsedBodies.get(answer);
  if (body === undefined) {
    body = parseJsonText(answer.text);
    parsedBodies.set(answer, body);
  }
  return body;
}
