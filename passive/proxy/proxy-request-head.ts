// A client's next request, read from the bytes its connection has sent: its head, once whole, read
// into what the proxy needs to route and frame it, or refused; and the head the target gets of it.
// Nothing here touches a socket: the client connection (proxy-connection.ts) acts on what it says.
import { withoutQuery } from './proxy-request-target.ts';
import { headEnd, MAX_HEAD_BYTES, parseHead, parseRequestLine, requestFraming, serializeHead, type Framing } from './proxy-wire.ts';

/** A request target is cut to this in the console and the report: it can be as long as a request line. */
const MAX_WHAT_LENGTH = 200;
/** Request headers that speak to the proxy or ask for another protocol, which it does not pass on. */
const NOT_FORWARDED = new Set(['proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'upgrade']);
const EMPTY = Buffer.alloc(0);

export interface RequestHead {
  startLine: string;
  method: string;
  /** The request target as received. */
  target: string;
  version: string;
  fields: Array<[string, string]>;
  framing: Framing | { error: string };
  /** How many Host headers it has. */
  hosts: number;
  /** `GET /v3/calls`: for the console and the report. */
  what: string;
}

/**
 * What the bytes read so far (`pending`) hold: a whole head (`head`, and the bytes after it in
 * `rest`), not yet one (`wait`: for the next request, or for the rest of its head), or a head
 * refused before it can be read (`refused`: the status and the proxy's plain answer). `pending` is
 * what is left to read as the next request (none once a head is taken: `rest` may be its body).
 */
export function takeRequestHead(
  pending: Buffer,
): { pending: Buffer } & ({ head: RequestHead; rest: Buffer } | { wait: 'idle' | 'head' } | { refused: { status: number; body: string } }) {
  // Empty lines before a request line are allowed, and skipped.
  while (pending.length >= 2 && pending[0] === 13 && pending[1] === 10) pending = pending.subarray(2);
  if (pending.length === 0) return { pending, wait: 'idle' };
  const end = headEnd(pending);
  if (end === -1) {
    if (pending.length > MAX_HEAD_BYTES)
      return { pending, refused: { status: 431, body: 'judging proxy: refused a request whose head is over 16 KiB\n' } };
    return { pending, wait: 'head' };
  }
  const parsed = parseHead(pending.toString('latin1', 0, end - 4));
  const rest = pending.subarray(end);
  const line = 'error' in parsed ? undefined : parseRequestLine(parsed.startLine);
  if ('error' in parsed || line === undefined) {
    const why = 'error' in parsed ? parsed.error : 'its request line is not "METHOD target HTTP/1.x"';
    return { pending: EMPTY, refused: { status: 400, body: `judging proxy: refused a request that is not HTTP/1.x: ${why}\n` } };
  }
  const fields = parsed.fields;
  return {
    pending: EMPTY,
    rest,
    head: {
      startLine: parsed.startLine,
      method: line.method,
      target: line.target,
      version: line.version,
      fields,
      framing: requestFraming(fields),
      hosts: fields.filter(([name]) => name.toLowerCase() === 'host').length,
      // Without its query, which may carry a key: this goes into the console and the report.
      what: `${line.method} ${withoutQuery(line.target).slice(0, MAX_WHAT_LENGTH)}`,
    },
  };
}

/** Why a whole head's Host headers keep it from being passed on (none in HTTP/1.1, or more than one), or undefined. */
export function hostRefusal(head: RequestHead): string | undefined {
  const { hosts } = head;
  if (hosts > 1 || (hosts === 0 && head.version === '1.1')) return hosts === 0 ? 'no Host header' : 'more than one Host header';
  return undefined;
}

/** The head as received, but for Host (the target's `host`) and the headers addressed to the proxy. */
export function forwardedHead(head: RequestHead, host: string): Buffer {
  const wire: Array<[string, string]> = head.fields
    .filter(([name]) => !NOT_FORWARDED.has(name.toLowerCase()))
    .map(([name, value]) => (name.toLowerCase() === 'host' ? [name, host] : [name, value]));
  if (head.hosts === 0) wire.unshift(['Host', host]);
  return serializeHead(head.startLine, wire);
}
