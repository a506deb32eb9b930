// JSON access logs (nginx's `log_format … escape=json`, and most gateways' JSON logs): a line per
// request with its method, address, status and time, and no body. Field names differ from one
// server to the next, so each part has a list of names to look for, which `--access-log-fields`
// replaces (`method=verb,uri=path,…`). Request headers come from fields named as nginx names its
// variables (`http_apikey` is the request's apikey header, `sent_http_content_type` the response's
// content-type); the headers a line records are exactly those, so a log that does not record the
// apikey header says nothing of the request's credentials, and the judge takes them as unknown.
import type { RecordedExchange } from './recorded-exchange.ts';

const ACCESS_LOG_PARTS = ['method', 'uri', 'status', 'time', 'seconds', 'milliseconds', 'host', 'scheme'] as const;
type Part = (typeof ACCESS_LOG_PARTS)[number];
export type AccessLogFields = Readonly<Record<Part, readonly string[]>>;

/** The names nginx's variables, and common JSON log formats, give each part. */
export const DEFAULT_ACCESS_LOG_FIELDS: AccessLogFields = {
  method: ['request_method', 'method'],
  uri: ['request_uri', 'uri', 'path'],
  status: ['status', 'status_code'],
  time: ['time_iso8601', 'time', 'timestamp', '@timestamp'],
  seconds: ['request_time'],
  milliseconds: ['duration_ms'],
  host: ['host', 'http_host', 'server_name'],
  scheme: ['scheme'],
};

/** `--access-log-fields` read: `part=name` pairs, comma-separated, each replacing that part's names; an error line for a bad one. */
export function accessLogFields(spec: string): AccessLogFields | string {
  const fields: Record<Part, readonly string[]> = { ...DEFAULT_ACCESS_LOG_FIELDS };
  for (const pair of spec.split(',').filter((text) => text.trim() !== '')) {
    const [part, name] = pair.split('=').map((text) => text.trim());
    if (!(ACCESS_LOG_PARTS as readonly string[]).includes(part ?? '') || !name)
      return `--access-log-fields takes part=field pairs, the parts ${ACCESS_LOG_PARTS.join(', ')} (got "${pair}")`;
    fields[part as Part] = [name];
  }
  return fields;
}

const REQUEST_HEADER = /^http_(.+)$/;
const RESPONSE_HEADER = /^sent_http_(.+)$/;

/** A value nginx writes for a variable that has none. */
const isEmpty = (value: string) => value === '' || value === '-';

/** One access log line as an exchange without bodies, or undefined when it is not one (no method, address or status). */
export function accessLogExchange(line: Record<string, unknown>, source: string, fields: AccessLogFields): RecordedExchange | undefined {
  const text = (part: Part) => {
    for (const name of fields[part]) {
      const value = line[name];
      if (typeof value === 'string' && !isEmpty(value)) return value;
      if (typeof value === 'number') return String(value);
    }
    return undefined;
  };
  const method = text('method');
  const uri = text('uri');
  const status = Number(text('status'));
  if (method === undefined || uri === undefined || !Number.isInteger(status)) return undefined;
  const url = /^https?:\/\//i.test(uri)
    ? uri
    : `${text('scheme') ?? 'http'}://${text('host') ?? 'unknown-host'}${uri.startsWith('/') ? '' : '/'}${uri}`;
  const seconds = Number(text('seconds'));
  const milliseconds = Number(text('milliseconds'));
  const time = Date.parse(text('time') ?? '');
  return {
    source,
    startedAt: Number.isFinite(time) ? new Date(time).toISOString() : '',
    durationMs: Number.isFinite(milliseconds) ? milliseconds : Number.isFinite(seconds) ? seconds * 1000 : 0,
    request: { method, url, ...headersOf(line, REQUEST_HEADER) },
    response: { status, headers: headersOf(line, RESPONSE_HEADER).headers },
  };
}

/** The headers of one side a line records, present or not, and those that were present. */
function headersOf(line: Record<string, unknown>, pattern: RegExp): { headers: Array<[string, string]>; headersRecorded: string[] } {
  const headers: Array<[string, string]> = [];
  const headersRecorded: string[] = [];
  for (const [field, value] of Object.entries(line)) {
    const name = pattern.exec(field)?.[1]?.replace(/_/g, '-').toLowerCase();
    if (name === undefined) continue;
    headersRecorded.push(name);
    if (typeof value === 'string' && !isEmpty(value)) headers.push([name, value]);
  }
  return { headers, headersRecorded };
}
