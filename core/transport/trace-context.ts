// Headers that let a server's own logs find the suite's requests (issue 57): a W3C Trace Context
// `traceparent` on every request, one trace id per test (per attempt of it: a retry is a new test
// run) and a new parent id per request, and `x-conformance-test` naming the test case. The trace id
// then stands beside each failure in the reports, and in the curl line that replays it.
// - Version 00, the only one defined; ids from the system's random source, never the run's seed: two
//   runs with the same seed send the same requests, but a server must tell their logs apart.
// - Flags 01 (sampled): a tracing backend that follows its caller's decision (OpenTelemetry's
//   default, parent-based sampling) then keeps the trace of the request a failure names. With 00 it
//   would drop exactly the requests a reader comes to look for; the suite sends few enough that
//   keeping them all costs a target nothing.
// - TRACE_HEADERS=false sends neither header, for a target that refuses headers it does not know.
import { randomFillSync } from 'node:crypto';

const TRACEPARENT_HEADER = 'traceparent';
export const TEST_CASE_HEADER = 'x-conformance-test';
/** The headers this module adds: they name the request, not what it asks, so two requests differing only in them ask the same. */
const TRACE_HEADER_NAMES: ReadonlySet<string> = new Set([TRACEPARENT_HEADER, TEST_CASE_HEADER]);

/** What the suite's own requests name in TEST_CASE_HEADER, outside any test. */
export const LEARNING_TEST_CASE = 'learning the target';
export const PREFLIGHT_TEST_CASE = 'preflight';

/** At most this many characters of a test's name in its header: servers and proxies bound a header line, and logs cut long fields. */
export const TEST_CASE_LIMIT = 160;

/** A traceparent of version 00 as W3C Trace Context writes it: lowercase hex, neither id all zeros. */
export const TRACEPARENT_FORM = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-0[01]$/;

/**
 * Random bytes drawn a pool at a time: one call of the system's source per id cost about 25 µs, a
 * tenth of the CPU a request of the direct wire takes (docs/speed.md); from the pool, about 1.5 µs (measured over 100,000 requests).
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** `bytes` random bytes in lowercase hex, never all zeros (an invalid id in Trace Context). */
function randomId(bytes: number): string {
  for (;;) {
    if (used + bytes > pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    const id = pool.toString('hex', used, (used += bytes));
    if (/[^0]/.test(id)) return id;
  }
}

/** The trace of one test, or of the suite's own work (the preflight, learning the target): one trace id, a new parent id per request. */
export class RequestTrace {
  readonly traceId = randomId(16);

  /** `testCase` names the test in TEST_CASE_HEADER (testCaseName): absent, the header is not sent. */
  constructor(readonly testCase?: string) {}

  /** The headers of the next request of this trace. */
  headers(): Record<string, string> {
    return {
      [TRACEPARENT_HEADER]: `00-${this.traceId}-${randomId(8)}-01`,
      ...(this.testCase !== undefined && { [TEST_CASE_HEADER]: this.testCase }),
    };
  }
}

/** A new trace when TRACE_HEADERS allows them, else none. */
export function traceWhen(enabled: boolean, testCase?: string): RequestTrace | undefined {
  return enabled ? new RequestTrace(testCase) : undefined;
}

/** What some non-ASCII characters of the suite's titles read as in ASCII. */
const ASCII_FORMS: ReadonlyArray<[RegExp, string]> = [
  [/→/g, '->'],
  [/←/g, '<-'],
  [/≤/g, '<='],
  [/≥/g, '>='],
  [/≠/g, '!='],
  [/…/g, '...'],
  [/[‘’]/g, "'"],
  [/[“”]/g, '"'],
];

/**
 * A test's name as a header value can carry it: its title, which in the suite starts with the
 * requirement id it holds (a lint holds every title to it; the id is never read back out of it), in
 * visible ASCII and single spaces, at most TEST_CASE_LIMIT characters. Accents are dropped, a few
 * signs spelled in ASCII, any other character becomes `?`.
 */
export function testCaseName(title: string): string {
  let ascii = title.normalize('NFKD').replace(/\p{M}/gu, '');
  for (const [pattern, form] of ASCII_FORMS) ascii = ascii.replace(pattern, form);
  const value = ascii
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?')
    .trim();
  const bounded = value.length > TEST_CASE_LIMIT ? `${value.slice(0, TEST_CASE_LIMIT - 3).trimEnd()}...` : value;
  return bounded === '' ? 'unnamed' : bounded;
}

/**
 * How a traceparent of any version is read (Trace Context, "Versioning"): a later version may add
 * fields after these four, and version ff is invalid.
 */
const TRACEPARENT_READ = /^(?!ff)[0-9a-f]{2}-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}(?:$|-)/;

/** The trace id of a request's traceparent header (any letter case of its name), when it has a valid one. */
export function traceIdOf(headers: Readonly<Record<string, string>>): string | undefined {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === TRACEPARENT_HEADER)?.[1];
  return value === undefined ? undefined : TRACEPARENT_READ.exec(value.trim())?.[1];
}

/** The headers of `headers` this module adds, by their lower-case names. */
export function traceHeadersOf(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => TRACE_HEADER_NAMES.has(name.toLowerCase())));
}

/** `headers` without those this module adds. */
export function withoutTraceHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !TRACE_HEADER_NAMES.has(name.toLowerCase())));
}
