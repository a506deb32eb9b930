// HAR entries made by hand for the passive self-tests: one request and its answer, the body
// inline, base64 or absent, as recorders write them. Passive mode orders answers by the times
// recorded, so entries made by hand happen one after another, a second apart in the order they are
// made, unless `at` says when.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harOf, type HarEntry } from './recording-forwarder.ts';
import { freshDir } from '../reports/report-runs.ts';

export interface EntrySpec {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  status: number;
  body?: unknown;
  /** How the response body is recorded. */
  bodyAs?: 'inline' | 'base64' | 'absent';
  requestBody?: string;
  /** When the request was sent, in seconds after HAND_MADE_EPOCH; by default a second after the entry made before. */
  at?: number;
  /** How long the exchange took, in milliseconds (12 by default). */
  time?: number;
}

/** The moment hand-made entries start from (ISO 8601, as startedDateTime). */
const HAND_MADE_EPOCH = Date.parse('2026-11-26T00:00:00.000Z');
let nextAt = 0;

export function harEntry(spec: EntrySpec): HarEntry {
  const text = spec.body === undefined ? '' : typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
  const bodyAs = spec.bodyAs ?? 'inline';
  const url = new URL(spec.url);
  const at = spec.at ?? nextAt;
  nextAt = Math.max(nextAt, at) + 1;
  const time = spec.time ?? 12;
  return {
    startedDateTime: new Date(HAND_MADE_EPOCH + at * 1000).toISOString(),
    time,
    request: {
      method: spec.method ?? 'GET',
      url: spec.url,
      httpVersion: 'HTTP/1.1',
      headers: Object.entries(spec.headers ?? {}).map(([name, value]) => ({ name, value })),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(spec.requestBody !== undefined && { postData: { mimeType: 'application/json', text: spec.requestBody } }),
      headersSize: -1,
      bodySize: spec.requestBody?.length ?? 0,
      cookies: [],
    },
    response: {
      status: spec.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      content: {
        // A recorder that leaves the body out still gives its size, or -1 when it does not know it.
        size: bodyAs === 'absent' ? -1 : Buffer.byteLength(text),
        mimeType: 'application/json',
        ...(bodyAs === 'inline' && { text }),
        ...(bodyAs === 'base64' && { text: Buffer.from(text).toString('base64'), encoding: 'base64' }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: Buffer.byteLength(text),
      cookies: [],
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
  };
}

/** Writes a HAR of the entries into a fresh folder; returns its path. */
export function writeHar(entries: HarEntry[], name = 'traffic.har'): string {
  const path = join(freshDir('passive-entries'), name);
  writeFileSync(path, JSON.stringify(harOf(entries)));
  return path;
}
