// The same recorded traffic in the other shapes the passive judge reads (passive/capture-shapes.ts),
// written as their tools write them: Envoy's tap filter (a file per trace from its file_per_tap sink,
// or the admin /tap stream saved to one file, each trace a pretty-printed JSON object, bodies as
// base64 bytes, cut at `limit` bytes and flagged truncated), and the suite's JSON Lines.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarEntry } from './recording-forwarder.ts';

/** A HAR entry's body bytes: its text, decoded from base64 where so recorded. */
function responseBytes(entry: HarEntry): Buffer | undefined {
  const { text, encoding } = entry.response.content;
  if (text === undefined) return undefined;
  return Buffer.from(text, encoding === 'base64' ? 'base64' : 'utf8');
}

function tapBody(bytes: Buffer | undefined, limit: number): Record<string, unknown> | undefined {
  if (bytes === undefined) return undefined;
  return bytes.length > limit
    ? { as_bytes: bytes.subarray(0, limit).toString('base64'), truncated: true }
    : { as_bytes: bytes.toString('base64') };
}

/** One HAR entry as Envoy's tap writes an HTTP buffered trace (envoy.data.tap.v3.TraceWrapper). */
export function tapTrace(entry: HarEntry, limit = Number.POSITIVE_INFINITY): Record<string, unknown> {
  const url = new URL(entry.request.url);
  const header = ({ name, value }: { name: string; value: string }) => ({ key: name.toLowerCase(), value });
  const sent = Date.parse(entry.startedDateTime);
  const requestBody = entry.request.postData && tapBody(Buffer.from(entry.request.postData.text), limit);
  const responseBody = tapBody(responseBytes(entry), limit);
  return {
    http_buffered_trace: {
      request: {
        headers: [
          { key: ':authority', value: url.host },
          { key: ':path', value: `${url.pathname}${url.search}` },
          { key: ':method', value: entry.request.method },
          { key: ':scheme', value: url.protocol.slice(0, -1) },
          ...entry.request.headers.filter(({ name }) => name.toLowerCase() !== 'host').map(header),
        ],
        ...(requestBody && { body: requestBody }),
        trailers: [],
        headers_received_time: new Date(sent).toISOString(),
      },
      response: {
        headers: [{ key: ':status', value: String(entry.response.status) }, ...entry.response.headers.map(header)],
        ...(responseBody && { body: responseBody }),
        trailers: [],
        headers_received_time: new Date(sent + entry.time).toISOString(),
      },
    },
  };
}

/** One HAR entry as a line of the suite's JSON Lines of exchanges (docs/passive.md). */
export function exchangeLine(entry: HarEntry): Record<string, unknown> {
  const bytes = responseBytes(entry);
  return {
    startedAt: entry.startedDateTime,
    durationMs: entry.time,
    request: {
      method: entry.request.method,
      url: entry.request.url,
      headers: entry.request.headers.map(({ name, value }) => [name, value]),
      ...(entry.request.postData && { body: entry.request.postData.text }),
    },
    response: {
      status: entry.response.status,
      headers: entry.response.headers.map(({ name, value }) => ({ name, value })),
      ...(bytes && { body: bytes.toString('base64'), bodyEncoding: 'base64' }),
    },
  };
}

/** Envoy's file_per_tap sink: a file per trace, pretty-printed, in `dir`; the files' paths. */
export function writeTapFiles(entries: readonly HarEntry[], dir: string, limit?: number): string[] {
  mkdirSync(dir, { recursive: true });
  return entries.map((entry, index) => {
    const path = join(dir, `tap_${index}.json`);
    writeFileSync(path, JSON.stringify(tapTrace(entry, limit), null, 2));
    return path;
  });
}

/** Envoy's admin /tap stream saved to one file: the traces one after another, pretty-printed. */
export function writeTapStream(entries: readonly HarEntry[], path: string, limit?: number): string {
  writeFileSync(path, entries.map((entry) => JSON.stringify(tapTrace(entry, limit), null, 2)).join('\n'));
  return path;
}

export function writeExchangeLines(entries: readonly HarEntry[], path: string): string {
  writeFileSync(path, `${entries.map((entry) => JSON.stringify(exchangeLine(entry))).join('\n')}\n`);
  return path;
}

/** One HAR entry as a line of nginx's JSON access log (escape=json): no bodies; the apikey header only when `withKey`. */
function accessLogLine(entry: HarEntry, withKey: boolean): Record<string, unknown> {
  const url = new URL(entry.request.url);
  const header = (pairs: ReadonlyArray<{ name: string; value: string }>, name: string) =>
    pairs.find((pair) => pair.name.toLowerCase() === name)?.value ?? '';
  return {
    time_iso8601: entry.startedDateTime,
    request_method: entry.request.method,
    request_uri: `${url.pathname}${url.search}`,
    host: url.host,
    scheme: url.protocol.slice(0, -1),
    status: String(entry.response.status),
    request_time: (entry.time / 1000).toFixed(3),
    ...(withKey && { http_apikey: header(entry.request.headers, 'apikey') }),
    sent_http_content_type: header(entry.response.headers, 'content-type'),
  };
}

export function writeAccessLog(entries: readonly HarEntry[], path: string, withKey: boolean): string {
  writeFileSync(path, `${entries.map((entry) => JSON.stringify(accessLogLine(entry, withKey))).join('\n')}\n`);
  return path;
}
