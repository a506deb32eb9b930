// The proxy's HAR (1.2) of what it saw, written entry by entry as the exchanges pass (to OUT.partial,
// renamed when it is whole), so that a long session costs disk, not memory. Secrets never reach it:
// headers and query parameters whose names say they carry one (apikey, authorization, cookie, …),
// and such properties of JSON bodies, are written as [redacted]; `redactText` (the reporters'
// redactor, which knows the configured keys) passes over every entry as the last line of defence.
import { createWriteStream, renameSync, type WriteStream } from 'node:fs';
import type { PassedExchange, PassedExchangeSink } from './proxy.ts';
import { isSecretHeader } from '../redaction.ts';
import { echoRedactor, type EchoRedactor } from '../../core/transport/echoed-secrets.ts';
import { visible } from '../../core/results/visible.ts';

/**
 * A redacted value is written as `$REDACTED_N`, the same value always with the same N: the HAR mode
 * judges from the file whether two requests carried the same key (a key once called unknown must
 * stay unknown), which one word for every key would make look like one key both refused and
 * accepted. N says nothing of the value. The `$` keeps the reporters' redactor from taking it for a key.
 */
const REDACTED_PREFIX = '$REDACTED_';

/** Secret values seen, each with its placeholder; the oldest are forgotten past MAX_SECRETS. */
class Secrets {
  private readonly labels = new Map<string, string>();
  private next = 1;
  /** The redactor of the values seen; rebuilt when one is added. */
  private scrubbing: EchoRedactor | undefined;

  /** The placeholder of `value`, and of the parts of it that travel alone (a cookie's values, a bearer token), noted for scrubbing. */
  label(value: string): string {
    const whole = this.note(value, true)!;
    const parts = [...value.split(/[;,]/).map((part) => part.slice(part.indexOf('=') + 1).trim()), value.replace(/^\S+\s+/, '')];
    for (const part of parts) if (part !== value) this.note(part, false);
    return whole;
  }

  private note(value: string, always: boolean): string | undefined {
    const known = this.labels.get(value);
    if (known !== undefined) return known;
    // Shorter values are too likely to be ordinary text to be cut out of everything else.
    if (!always && (value.length < MIN_SECRET_LENGTH || value.startsWith(REDACTED_PREFIX))) return undefined;
    const label = `${REDACTED_PREFIX}${this.next++}`;
    this.labels.set(value, label);
    if (this.labels.size > MAX_SECRETS) this.labels.delete(this.labels.keys().next().value!);
    this.scrubbing = undefined;
    return label;
  }

  /**
   * Each secret value in `text` replaced by its placeholder, in every form a target may echo it in
   * (core/transport/echoed-secrets.ts: URL-encoded, JSON-escaped, base64, any case, a run of 12
   * characters or more): a target that reflected a key URL-encoded in a header of its own had the
   * key written into the HAR, where only the value as sent was looked for.
   */
  scrub(text: string): string {
    this.scrubbing ??= echoRedactor(
      [...this.labels].filter(([value]) => value.length >= MIN_SECRET_LENGTH).map(([value, label]) => [label, value] as const),
    );
    return this.scrubbing(text);
  }
}
/** Names of headers, query parameters and JSON properties whose values are secrets. */
const SECRET_NAME = /api[-_]?key|token|secret|passw|authori[sz]ation|^auth|cookie|signature|credential|^(key|sig|session)$/i;

/** The judge's own rule for headers (redaction.ts), and a wider one for query parameters and JSON properties. */
const isSecretName = (name: string): boolean => isSecretHeader(name) || SECRET_NAME.test(name);

export interface HarWriter extends PassedExchangeSink {
  /** Closes the entries and the file; resolves with the number of entries once it is on disk. */
  finish(): Promise<number>;
}

/** A file named so holds JSON Lines of exchanges (docs/passive.md), the shape a tap or any tool can write too; any other, a HAR. */
export const isExchangeLinesFile = (path: string): boolean => /\.(jsonl|ndjson)$/i.test(path);

export function harWriter(
  path: string,
  creator: { name: string; version: string },
  redactText: (text: string) => string = (text) => text,
): HarWriter {
  const lines = isExchangeLinesFile(path);
  const partial = `${path}.partial`;
  const out: WriteStream = createWriteStream(partial);
  let failure: Error | undefined;
  out.on('error', (error) => (failure ??= error));
  const redactedNames = new Set<string>();
  // Secret values seen so far: a key sent in one request may come back in any later body or header.
  const secrets = new Secrets();
  let entries = 0;
  if (!lines) out.write(`{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"pages":[],"entries":[\n`);
  return {
    add(exchange) {
      const entry = scrubbed(harEntry(exchange, redactedNames, secrets), secrets) as HarEntry;
      // visible(): a control character the traffic held is written as its JSON escape, the same text to
      // a reader, and nothing a terminal acts on when the file is shown.
      const text = visible(redactText(JSON.stringify(lines ? exchangeLine(entry) : entry)));
      out.write(lines ? `${text}\n` : `${entries === 0 ? '' : ',\n'}${text}`);
      entries += 1;
    },
    async finish() {
      const names = [...redactedNames].sort();
      const comment = `Written by the judging proxy. ${names.length === 0 ? 'Nothing needed redacting.' : `Values redacted (each shown as ${REDACTED_PREFIX}N, the same value with the same N): ${names.join(', ')}.`}`;
      await new Promise<void>((resolve, reject) => {
        out.end(lines ? '' : `\n],"comment":${JSON.stringify(comment)}}}\n`, () => (failure ? reject(failure) : resolve()));
        out.once('error', reject);
      });
      renameSync(partial, path);
      return entries;
    },
  };
}

type NameValue = { name: string; value: string };

/** The HAR entry harEntry() writes, as exchangeLine() reads it. */
interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: NameValue[]; postData?: { text: string; encoding?: string } };
  response: { status: number; headers: NameValue[]; content: { text?: string; encoding?: string; comment?: string } };
}

/**
 * A redacted HAR entry as a line of JSON Lines of exchanges (passive/capture-shapes.ts reads them): the
 * same values, and a body the proxy did not keep marked as cut short, so the judge counts it so.
 */
function exchangeLine({ startedDateTime, time, request, response }: HarEntry): Record<string, unknown> {
  const pairs = (headers: NameValue[]) => headers.map(({ name, value }) => [name, value]);
  const body = (text: string | undefined, encoding: string | undefined) =>
    text === undefined ? {} : { body: text, ...(encoding === 'base64' && { bodyEncoding: 'base64' }) };
  return {
    startedAt: startedDateTime,
    durationMs: time,
    request: {
      method: request.method,
      url: request.url,
      headers: pairs(request.headers),
      ...body(request.postData?.text, request.postData?.encoding),
    },
    response: {
      status: response.status,
      headers: pairs(response.headers),
      ...body(response.content.text, response.content.encoding),
      ...(response.content.text === undefined && response.content.comment !== undefined && { bodyTruncated: true }),
    },
  };
}

/** Secret values kept to scrub later entries with; the oldest go first past this. */
const MAX_SECRETS = 1_000;
/** Shorter values are too likely to be ordinary text to be cut out of everything else. */
const MIN_SECRET_LENGTH = 6;

/** Every string of the entry with each secret value seen replaced by its placeholder. */
function scrubbed(entry: unknown, secrets: Secrets): unknown {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return secrets.scrub(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner)]));
    return value;
  };
  return walk(entry);
}

function harEntry(exchange: PassedExchange, redacted: Set<string>, secrets: Secrets): Record<string, unknown> {
  const { request, response, passed } = exchange;
  const headers = (pairs: Array<[string, string]>, where: string): NameValue[] =>
    pairs.map(([name, value]) => {
      if (!isSecretName(name)) return { name, value };
      redacted.add(`${where} header ${name.toLowerCase()}`);
      return { name, value: secrets.label(value) };
    });
  const url = new URL(request.url);
  // Only the secret parameters' values change; the rest of the query stays as it was sent, encoding included.
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  const query = url.search
    .slice(1)
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = decode(at === -1 ? pair : pair.slice(0, at));
      if (at === -1 || !isSecretName(name)) return pair;
      redacted.add(`query parameter ${name}`);
      return `${pair.slice(0, at)}=${secrets.label(decode(pair.slice(at + 1)))}`;
    });
  if (url.search !== '') url.search = query.join('&');
  const requestType = headerOf(request.headers, 'content-type');
  const responseType = headerOf(response.headers, 'content-type') ?? 'x-unknown';
  const requestText = passed.requestBody && bodyText(passed.requestBody, requestType, redacted, 'request body', secrets);
  const responseText = passed.responseBody && bodyText(passed.responseBody, responseType, redacted, 'response body', secrets);
  return {
    startedDateTime: exchange.startedAt,
    time: round(exchange.durationMs),
    request: {
      method: request.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(request.headers, 'request'),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(requestText && { postData: { mimeType: requestType ?? 'application/octet-stream', ...requestText } }),
      headersSize: -1,
      bodySize: passed.requestBytes,
    },
    response: {
      status: response.status,
      statusText: passed.statusText,
      httpVersion: passed.httpVersion,
      cookies: [],
      headers: headers(response.headers, 'response'),
      content: {
        size: passed.responseBody?.length ?? passed.responseBytes,
        mimeType: responseType,
        ...(responseText ??
          (passed.responseBytes > 0 && {
            comment: `body not kept: ${passed.responseBodyNotKept?.why ?? 'larger than the proxy keeps, or not decodable'}`,
          })),
      },
      redirectURL: headerOf(response.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: passed.responseBytes,
    },
    cache: {},
    timings: { send: 0, wait: round(passed.waitMs), receive: round(passed.receiveMs) },
    comment: exchange.source,
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
const headerOf = (pairs: Array<[string, string]>, name: string) => pairs.find(([key]) => key.toLowerCase() === name)?.[1];
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A body as HAR holds it: text when it is UTF-8 (JSON secrets redacted), else base64. */
function bodyText(
  body: Buffer,
  mimeType: string | undefined,
  redacted: Set<string>,
  where: string,
  secrets: Secrets,
): { text: string; encoding?: 'base64' } {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { text: body.toString('base64'), encoding: 'base64' };
  }
  if (!/json/i.test(mimeType ?? '')) return { text };
  try {
    const found = new Set<string>();
    const clean = redactJson(JSON.parse(text), found, secrets);
    if (found.size === 0) return { text };
    for (const name of found) redacted.add(`${where} property ${name}`);
    return { text: JSON.stringify(clean) };
  } catch {
    return { text };
  }
}

function redactJson(value: unknown, found: Set<string>, secrets: Secrets): unknown {
  if (Array.isArray(value)) return value.map((item) => redactJson(item, found, secrets));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => {
      if (!isSecretName(name) || typeof inner === 'object') return [name, redactJson(inner, found, secrets)];
      found.add(name);
      return [name, secrets.label(String(inner))];
    }),
  );
}
