// The suite's transport against small misbehaving servers on loopback: what reaches the target (the
// key, put in at the last moment), what is retried and how long it waits, what is refused unsent, and
// that a hostile answer ends in a clear error within a bounded time and memory. Over both wires: Node's
// own client (the default) and Playwright's request context through the gateway (runs with tracing).
import { test, expect, type APIRequestContext } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { loadConfig, type SuiteConfig } from '../../core/run/config.ts';
import { Transport, type TransportRequest } from '../../core/transport/transport.ts';
import {
  AnswerTooLarge,
  RateLimitedBeyondBound,
  RequestBudgetExhausted,
  TargetUnavailable,
  WriteRefused,
} from '../../core/transport/errors.ts';
import { Pacer } from '../../core/transport/rate-limit.ts';
import { derivedToken } from '../../core/transport/secret-tokens.ts';
import { json, startScriptedServer, stream, type Script, type ScriptedServer } from './scripted-server.ts';
import { WIRES, wireOf, type WireKind } from './test-wires.ts';

const KEY = 'sentinel-transport-key-5f1c9e';

interface Rig {
  server: ScriptedServer;
  transport: Transport;
  config: SuiteConfig;
  /** The waits the transport asked for, in order (they are not waited: the clock is the test's). */
  waits: number[];
  /** When each of those waits would have ended by the real clock. */
  waitEnds: number[];
  get(path?: string, headers?: Record<string, string>): Promise<Awaited<ReturnType<Transport['send']>>>;
  send(request: Omit<TransportRequest, 'url'> & { path: string }): ReturnType<Transport['send']>;
}

async function rig(
  request: APIRequestContext,
  kind: WireKind,
  script: Script,
  env: Record<string, string> = {},
  options: { realTime?: boolean; pacer?: Pacer } = {},
): Promise<Rig & { close(): Promise<void> }> {
  const server = await startScriptedServer(script);
  const config = loadConfig({ CALLS_BASE_URL: server.base, CHAT_BASE_URL: server.base, API_KEY: KEY, REQUEST_TIMEOUT_MS: '400', ...env });
  const wire = await wireOf(kind, request, config);
  const waits: number[] = [];
  const waitEnds: number[] = [];
  const sleep = options.realTime
    ? undefined
    : async (ms: number) => {
        if (ms <= 0) return;
        waits.push(ms);
        waitEnds.push(Date.now() + ms);
      };
  const transport = new Transport(wire, { config, ...(sleep && { sleep }), ...(options.pacer && { pacer: options.pacer }) });
  const send: Rig['send'] = ({ path, ...rest }) => transport.send({ ...rest, url: `${server.base}${path}` });
  return {
    server,
    transport,
    config,
    waits,
    waitEnds,
    send,
    get: (path = '/calls', headers = { apikey: '$API_KEY' }) => send({ method: 'GET', path, headers }),
    async close() {
      await wire.close();
      await server.close();
    },
  };
}

const ok: Script = (_request, response) => json(response, 200, { data: [], meta: { pagination: { total: 0 } } });

for (const wire of WIRES) {
  test.describe(`over the ${wire} wire`, () => {
    test('the target receives the key and its near misses, put in on the way out; the suite sends only tokens', async ({ request }) => {
      const target = await rig(request, wire, ok);
      try {
        await target.get('/calls', { apikey: '$API_KEY' });
        await target.get('/calls', {
          APIKEY: derivedToken('$API_KEY', [
            { kind: 'cut', length: 8 },
            { kind: 'append', text: '|x' },
          ]),
        });
        await target.get('/calls', { apikey: 'plainly-invalid' });
        expect(target.server.received.map((received) => received.headers.apikey)).toEqual([KEY, `${KEY.slice(0, 8)}|x`, 'plainly-invalid']);
        // Names keep their letter case on the way: a target's handling of APIKEY is under test.
        expect(target.server.received.map((received) => received.rawHeaders.find((name) => name.toLowerCase() === 'apikey'))).toEqual([
          'apikey',
          'APIKEY',
          'apikey',
        ]);
      } finally {
        await target.close();
      }
    });

    test('a 503, a reset before the answer and a body cut short are retried with backoff; the answer after them is the one judged', async ({
      request,
    }) => {
      const target = await rig(request, wire, (_request, response, n) => {
        if (n === 0) return json(response, 503, { error: 'busy' });
        if (n === 1) return response.socket?.destroy();
        if (n === 2) {
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).write('{"data":');
          return setTimeout(() => response.socket?.destroy(), 20);
        }
        ok(_request, response, n);
      });
      try {
        const answer = await target.get();
        expect(answer).toMatchObject({ status: 200, attempts: 4 });
        expect(JSON.parse(answer.text)).toEqual({ data: [], meta: { pagination: { total: 0 } } });
        expect(target.waits).toEqual([500, 1000, 2000]);
      } finally {
        await target.close();
      }
    });

    test('what stays unresolved is TargetUnavailable after four tries, and every later request fails at once, unsent', async ({
      request,
    }) => {
      const target = await rig(request, wire, (_request, response) => json(response, 504, { error: 'gateway timeout' }));
      try {
        await expect(target.get()).rejects.toThrow(TargetUnavailable);
        await expect(target.get('/calls/abc')).rejects.toThrow(
          /found unavailable earlier in this run.*failed 4 times; the last time it answered 504/,
        );
        expect(target.server.received).toHaveLength(4);
      } finally {
        await target.close();
      }
    });

    test('another 5xx is sent once more: given twice it is the answer to judge, given once it is not', async ({ request }) => {
      const always = await rig(request, wire, (_request, response) => json(response, 500, { error: { code: 'ERR_INTERNAL' } }));
      const once = await rig(request, wire, (request, response, n) =>
        n === 0 ? json(response, 500, { error: { code: 'ERR_INTERNAL' } }) : ok(request, response, n),
      );
      try {
        expect(await always.get()).toMatchObject({ status: 500, attempts: 2 });
        expect(always.server.received).toHaveLength(2);
        expect(always.waits).toEqual([200]);
        expect(await once.get()).toMatchObject({ status: 200, attempts: 2 });
      } finally {
        await always.close();
        await once.close();
      }
    });

    test('an answer that stalls after its headers is cut at REQUEST_TIMEOUT_MS, tried again, and ends unavailable', async ({ request }) => {
      const target = await rig(
        request,
        wire,
        (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).write('{"data":['),
      );
      try {
        const started = performance.now();
        await expect(target.get()).rejects.toThrow(/failed 4 times; the last time timeout: no complete answer within 400 ms/);
        expect(performance.now() - started).toBeLessThan(4 * 400 + 1_500);
      } finally {
        await target.close();
      }
    });

    test('a body beyond MAX_BODY_BYTES is not read: AnswerTooLarge at once, and the target stops being read', async ({ request }) => {
      const target = await rig(
        request,
        wire,
        (_request, response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          stream(response, Buffer.alloc(64 * 1024, 0x20));
        },
        { MAX_BODY_BYTES: String(1 << 20), REQUEST_TIMEOUT_MS: '5000' },
      );
      try {
        await expect(target.get()).rejects.toThrow(AnswerTooLarge);
        await expect(target.get()).rejects.toThrow(/larger than 1048576 bytes \(MAX_BODY_BYTES\)/);
        expect(target.server.received).toHaveLength(2);
        await new Promise((resume) => setTimeout(resume, 200));
        // What the kernel's socket buffers took beyond the cap, and no more: the wire stopped reading.
        expect(target.server.bytesWritten()).toBeLessThan(2 * 12 * (1 << 20));
      } finally {
        await target.close();
      }
    });

    test('a compressed body is decoded for the suite, and capped after decoding: a small gzip bomb does not grow', async ({ request }) => {
      const small = gzipSync(JSON.stringify({ data: [], meta: { pagination: { total: 0 } } }));
      const bomb = gzipSync(Buffer.alloc(64 << 20, 0x20));
      const target = await rig(
        request,
        wire,
        (request, response) => {
          const body = request.url?.includes('bomb') ? bomb : small;
          response
            .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length })
            .end(body);
        },
        { MAX_BODY_BYTES: String(1 << 20) },
      );
      try {
        const answer = await target.get('/calls');
        expect(JSON.parse(answer.text)).toEqual({ data: [], meta: { pagination: { total: 0 } } });
        expect(answer.headers['content-encoding']).toBeUndefined();
        expect(bomb.length).toBeLessThan(1 << 20);
        await expect(target.get('/calls?bomb')).rejects.toThrow(AnswerTooLarge);
      } finally {
        await target.close();
      }
    });

    test('a redirect is the answer, not followed, so a redirect loop is one request', async ({ request }) => {
      const target = await rig(request, wire, (request, response) => response.writeHead(302, { location: request.url ?? '/' }).end());
      try {
        expect(await target.get()).toMatchObject({ status: 302, attempts: 1 });
        expect(target.server.received).toHaveLength(1);
      } finally {
        await target.close();
      }
    });

    test("a target cannot forge the gateway's failure header: it never reaches the suite", async ({ request }) => {
      const target = await rig(request, wire, (_request, response) =>
        json(response, 200, { data: [] }, { 'x-conformance-gateway': 'body-too-large' }),
      );
      try {
        const answer = await target.get();
        expect(answer.status).toBe(200);
        expect(answer.headers['x-conformance-gateway']).toBeUndefined();
      } finally {
        await target.close();
      }
    });

    test('a write to a remote target is refused unsent unless ALLOW_WRITES, and then goes only to GROUP_GUID', async ({ request }) => {
      const readOnly = await rig(request, wire, ok);
      const writable = await rig(request, wire, ok, { ALLOW_WRITES: 'true', GROUP_GUID: 'group-7', MESSAGE_ID: '3', ACTING_UID: 'user-1' });
      const write = (target: Rig, guid: string, method = 'DELETE') =>
        target.send({
          method,
          path: `/groups/${guid}/conversation/read`,
          headers: { apikey: '$API_KEY' },
          body: Buffer.from('{"messageId":3}'),
        });
      try {
        await expect(write(readOnly, 'group-7')).rejects.toThrow(
          /Not sent: DELETE .*\/groups\/group-7\/conversation\/read is a write, and ALLOW_WRITES is not true/,
        );
        expect(readOnly.server.received).toEqual([]);

        expect(await write(writable, 'group-7')).toMatchObject({ status: 200 });
        await expect(write(writable, 'group-8')).rejects.toThrow(WriteRefused);
        await expect(write(writable, 'group-7', 'POST')).rejects.toThrow(/writes go only to .*\/groups\/group-7\/conversation\/read/);
        expect(writable.server.received.map((received) => `${received.method} ${received.url}`)).toEqual([
          'DELETE /v3/groups/group-7/conversation/read',
        ]);
      } finally {
        await readOnly.close();
        await writable.close();
      }
    });

    test('REQUEST_BUDGET counts every request sent, retries included, and the one past it is not sent', async ({ request }) => {
      const target = await rig(request, wire, (request, response, n) => (n === 0 ? json(response, 500, {}) : ok(request, response, n)), {
        REQUEST_BUDGET: '3',
      });
      try {
        expect(await target.get()).toMatchObject({ status: 200, attempts: 2 });
        await target.get();
        await expect(target.get()).rejects.toThrow(RequestBudgetExhausted);
        await expect(target.get()).rejects.toThrow(/REQUEST_BUDGET \(3 requests\) is spent; GET .* was not sent/);
        expect(target.server.received).toHaveLength(3);
      } finally {
        await target.close();
      }
    });

    test('MAX_RPS spaces the starts of requests', async ({ request }) => {
      const target = await rig(request, wire, ok, {}, { realTime: true, pacer: new Pacer(20) });
      try {
        for (let index = 0; index < 6; index += 1) await target.get();
        // Six starts at 20 a second span five intervals of 50 ms; one request's hop may be slower than
        // the next's, so single gaps vary, the span does not.
        const arrivals = target.server.received.map((received) => received.at);
        expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(5 * 50 - 30);
      } finally {
        await target.close();
      }
    });

    test('X-Rate-Limit-Remaining: 0 holds the next request until X-Rate-Limit-Reset, without a 429', async ({ request }) => {
      let resetAtMs = 0;
      const target = await rig(
        request,
        wire,
        (request, response, n) => {
          if (n > 0) return ok(request, response, n);
          const reset = Math.floor(Date.now() / 1000) + 1;
          resetAtMs = reset * 1000;
          json(response, 200, { data: [] }, { 'x-rate-limit': '1', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(reset) });
        },
        {},
        { realTime: true },
      );
      try {
        await target.get();
        await target.get();
        expect(target.server.received).toHaveLength(2);
        const secondArrival = Date.now() - (performance.now() - target.server.received[1]!.at);
        expect(secondArrival).toBeGreaterThanOrEqual(resetAtMs - 20);
      } finally {
        await target.close();
      }
    });

    test('a 429 waits as Retry-After asks and asks again; one asking longer than the bound gives up at once, unsent again', async ({
      request,
    }) => {
      const asked: number[] = [];
      const target = await rig(request, wire, (request, response, n) => {
        if (request.url?.includes('hour'))
          return json(response, 429, { error: { code: 'ERR_TOO_MANY_REQUESTS' } }, { 'retry-after': '3600' });
        if (n < 2) {
          asked.push(Date.now());
          return json(response, 429, { error: { code: 'ERR_TOO_MANY_REQUESTS' } }, { 'retry-after': '2' });
        }
        ok(request, response, n);
      });
      try {
        expect(await target.get('/calls')).toMatchObject({ status: 200, attempts: 3 });
        // The wait is the run's hold, counted from when the 429 came, so it is what is left of the two
        // seconds when the transport asks to wait (on busy cores, 14 ms later): it ends no earlier than
        // two seconds after the target answered, and is never longer than two seconds.
        expect(target.waits).toHaveLength(2);
        target.waits.forEach((wait, index) => {
          expect(wait).toBeLessThanOrEqual(2_000);
          expect(target.waitEnds[index]).toBeGreaterThanOrEqual(asked[index]! + 2_000);
        });
        await expect(target.get('/calls?hour')).rejects.toThrow(RateLimitedBeyondBound);
        expect(target.server.received).toHaveLength(4);
      } finally {
        await target.close();
      }
    });
  });
}
