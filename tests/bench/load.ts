// Load with autocannon: a fixed number of requests (the floor), or a fixed time per operation (the
// comparison with Prism). The operations are the interface's read operations as the suite sends
// them: List Calls with filters, Get Call of a listed call, and an auth error (no key).
import autocannon from 'autocannon';
import { DEMO_KEYS } from '../../reference/fixtures.ts';

export interface Operation {
  name: string;
  method: 'GET';
  path: string;
  headers: Record<string, string>;
}

/** The read operations, with a sessionId the target lists (Prism answers any). */
export function readOperations(sessionId: string): Operation[] {
  const key = { apikey: DEMO_KEYS.fullAccess };
  return [
    { name: 'List Calls (type, status, perPage)', method: 'GET', path: '/calls?type=video&status=ended&perPage=25', headers: key },
    { name: 'Get Call', method: 'GET', path: `/calls/${encodeURIComponent(sessionId)}`, headers: key },
    { name: 'Auth error (no apikey)', method: 'GET', path: '/calls', headers: {} },
  ];
}

export interface LoadResult {
  requests: number;
  ms: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  errors: number;
  non2xx: number;
}

/**
 * The time `amount` requests cycling through `operations` take, over `connections` connections, as
 * fast as the server answers. autocannon ends a run of a fixed amount on its one-second tick, so
 * the rate is measured over a fixed time and the amount's time computed from it.
 */
export async function timeAmount(
  base: string,
  operations: Operation[],
  amount: number,
  connections = 4,
  durationSeconds = 3,
): Promise<LoadResult> {
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  const measured = await load({
    url: base,
    connections,
    duration: durationSeconds,
    requests: operations.map(({ method, path, headers }) => ({ method, path: `${prefix}${path}`, headers })),
  });
  return { ...measured, requests: amount, ms: (amount / measured.requestsPerSecond) * 1000 };
}

/** One operation for `durationSeconds`, over `connections` connections. */
export function sendFor(base: string, operation: Operation, durationSeconds: number, connections = 10): Promise<LoadResult> {
  return load({
    url: `${base}${operation.path}`,
    connections,
    duration: durationSeconds,
    method: operation.method,
    headers: operation.headers,
  });
}

async function load(options: autocannon.Options): Promise<LoadResult> {
  const started = performance.now();
  const result = await autocannon(options);
  const ms = performance.now() - started;
  return {
    requests: result.requests.total,
    ms,
    requestsPerSecond: result.requests.total / (ms / 1000),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
