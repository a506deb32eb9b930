// The shapes of one captured exchange besides a HAR entry, each read into a RecordedExchange:
// - Envoy's tap (envoy.data.tap.v3.TraceWrapper holding an HttpBufferedTrace): headers as
//   `{key, value}` (or `raw_value`, base64) with HTTP/2 pseudo-headers for the method, path, authority,
//   scheme and status; bodies `{as_bytes}` (base64) or `{as_string}`, flagged `truncated` when the tap
//   kept only their start; each message's `headers_received_time`.
// - The suite's JSON Lines of exchanges (docs/passive.md): `startedAt`, `durationMs`, and a request
//   and a response, each with headers (pairs, `{name, value}` objects, or an object of names) and a
//   `body` (text, or base64 with `bodyEncoding: "base64"`, `bodyTruncated` when cut short).
// - a line of a JSON access log (access-log.ts): no bodies, and only the headers it names.
// A body cut short is no body: the judge counts the exchange as judged without it, never as wrong.
// A value of neither shape is no exchange, and is counted as such.
import type { RecordedExchange } from './recorded-exchange.ts';
import { bodyTextOf, type BodyText } from '../core/transport/body-text.ts';
import { accessLogExchange, DEFAULT_ACCESS_LOG_FIELDS, type AccessLogFields } from './access-log.ts';
import { LongString, stringOf, withStrings } from './capture-value.ts';

export interface CapturedValue {
  exchange?: RecordedExchange;
  /** A body the capture holds only the start of was left out. */
  truncated: boolean;
}

type Headers = Array<[string, string]>;
type Body = { kind: 'whole'; body: BodyText } | { kind: 'cut' } | { kind: 'none' };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function capturedExchange(value: unknown, source: string, accessLog: AccessLogFields = DEFAULT_ACCESS_LOG_FIELDS): CapturedValue {
  if (!isObject(value)) return { truncated: false };
  if (isObject(value.http_buffered_trace)) return tapExchange(value.http_buffered_trace, source);
  if (isObject(value.request) && isObject(value.response)) return linesExchange(value, source);
  if (value.http_streamed_trace_segment !== undefined) return { truncated: false };
  // A log's fields are named by its user: any of them may hold a string the reader left out.
  const logged = accessLogExchange(withStrings(value) as Record<string, unknown>, source, accessLog);
  return logged === undefined ? { truncated: false } : { exchange: logged, truncated: false };
}

function tapExchange(trace: Record<string, unknown>, source: string): CapturedValue {
  const { request, response } = trace;
  if (!isObject(request) || !isObject(response)) return { truncated: false };
  const requestHeaders = tapHeaders(request.headers);
  const responseHeaders = tapHeaders(response.headers);
  const pseudo = (headers: Headers, name: string) => headers.find(([key]) => key === name)?.[1];
  const method = pseudo(requestHeaders, ':method');
  const path = pseudo(requestHeaders, ':path');
  const authority = pseudo(requestHeaders, ':authority') ?? pseudo(requestHeaders, 'host');
  const status = Number(pseudo(responseHeaders, ':status'));
  if (method === undefined || path === undefined || authority === undefined) return { truncated: false };
  const scheme = pseudo(requestHeaders, ':scheme') ?? pseudo(requestHeaders, 'x-forwarded-proto') ?? 'http';
  const sent = timeOf(request.headers_received_time);
  const answered = timeOf(response.headers_received_time);
  const requestBody = tapBody(request.body);
  const responseBody = tapBody(response.body);
  const plain = (headers: Headers) => headers.filter(([key]) => !key.startsWith(':'));
  return recorded(source, {
    startedAt: sent === undefined ? '' : new Date(sent).toISOString(),
    durationMs: sent !== undefined && answered !== undefined && answered >= sent ? answered - sent : 0,
    request: { method, url: `${scheme}://${authority}${path}`, headers: plain(requestHeaders), body: requestBody },
    response: { status: Number.isInteger(status) ? status : 0, headers: plain(responseHeaders), body: responseBody },
  });
}

function linesExchange(value: Record<string, unknown>, source: string): CapturedValue {
  const request = value.request as Record<string, unknown>;
  const response = value.response as Record<string, unknown>;
  if (typeof request.method !== 'string' || typeof request.url !== 'string') return { truncated: false };
  return recorded(source, {
    startedAt: typeof value.startedAt === 'string' ? value.startedAt : '',
    durationMs: typeof value.durationMs === 'number' && value.durationMs >= 0 ? value.durationMs : 0,
    request: { method: request.method, url: request.url, headers: linesHeaders(request.headers), body: linesBody(request) },
    response: {
      status: typeof response.status === 'number' && Number.isInteger(response.status) ? response.status : 0,
      headers: linesHeaders(response.headers),
      body: linesBody(response),
    },
  });
}

interface Parts {
  startedAt: string;
  durationMs: number;
  request: { method: string; url: string; headers: Headers; body: Body };
  response: { status: number; headers: Headers; body: Body };
}

function recorded(source: string, { startedAt, durationMs, request, response }: Parts): CapturedValue {
  const requestText = request.body.kind === 'whole' ? request.body.body.text : undefined;
  const responseBody = response.body.kind === 'whole' ? response.body.body : undefined;
  return {
    truncated: request.body.kind === 'cut' || response.body.kind === 'cut',
    exchange: {
      source,
      startedAt,
      durationMs,
      request: {
        method: request.method,
        url: request.url,
        headers: request.headers,
        ...(requestText !== undefined && { bodyText: requestText }),
      },
      response: {
        status: response.status,
        headers: response.headers,
        ...(responseBody && { bodyText: responseBody.text, ...(responseBody.notUtf8 && { notUtf8: true as const }) }),
      },
    },
  };
}

/** Envoy's HeaderValue list: `value` as text, or `raw_value` as base64 bytes. */
function tapHeaders(value: unknown): Headers {
  if (!Array.isArray(value)) return [];
  return value.flatMap((header): Headers => {
    if (!isObject(header) || typeof header.key !== 'string') return [];
    if (typeof header.value === 'string') return [[header.key.toLowerCase(), header.value]];
    if (typeof header.raw_value === 'string')
      return [[header.key.toLowerCase(), Buffer.from(header.raw_value, 'base64').toString('latin1')]];
    return [[header.key.toLowerCase(), '']];
  });
}

function tapBody(value: unknown): Body {
  if (!isObject(value)) return { kind: 'none' };
  if (value.truncated === true) return { kind: 'cut' };
  if (value.as_bytes instanceof LongString) return { kind: 'whole', body: bodyTextOf(value.as_bytes.base64()) };
  if (typeof value.as_bytes === 'string') return { kind: 'whole', body: bodyTextOf(Buffer.from(value.as_bytes, 'base64')) };
  const text = stringOf(value.as_string);
  if (text !== undefined) return { kind: 'whole', body: { text } };
  return { kind: 'none' };
}

/** Headers as pairs, as `{name, value}` objects, or as an object of names to a value or a list of values. */
function linesHeaders(value: unknown): Headers {
  const text = (item: unknown) => stringOf(item) ?? (typeof item === 'number' ? String(item) : '');
  if (Array.isArray(value))
    return value.flatMap((header): Headers => {
      if (Array.isArray(header) && typeof header[0] === 'string') return [[header[0], text(header[1])]];
      if (isObject(header) && typeof header.name === 'string') return [[header.name, text(header.value)]];
      return [];
    });
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([name, item]): Headers =>
    Array.isArray(item) ? item.map((one) => [name, text(one)]) : [[name, text(item)]],
  );
}

function linesBody(message: Record<string, unknown>): Body {
  if (message.bodyTruncated === true) return { kind: 'cut' };
  const { body } = message;
  if (body instanceof LongString)
    return { kind: 'whole', body: message.bodyEncoding === 'base64' ? bodyTextOf(body.base64()) : { text: body.text() } };
  if (typeof body !== 'string') return { kind: 'none' };
  if (message.bodyEncoding === 'base64') return { kind: 'whole', body: bodyTextOf(Buffer.from(body, 'base64')) };
  return { kind: 'whole', body: { text: body } };
}

/** A protobuf JSON Timestamp (RFC 3339 text) as milliseconds, or undefined. */
function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}
