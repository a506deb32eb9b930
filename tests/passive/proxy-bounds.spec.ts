// The judging proxy is bounded everywhere (issue 36, item 3), shown against real misbehaving targets
// and clients on loopback (proxy-hostile-target.ts): a target that never connects, never answers, or
// goes quiet half-way gets the client a 504 that says which wait ran out, or the answer cut off,
// within the timeout, counted and never judged; a target that is slow but never quiet for long is
// passed whole, as is an answer a slow client takes its time to read. Compressed answers that inflate
// past what the proxy keeps pass on unchanged and are judged without their body, counted. The request
// line is forwarded as received, or refused with a 400. A client that gives up on an answer, before
// or after the proxy has passed it, is counted as such and its exchange not judged.
import { test, expect } from '@playwright/test';
import { request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { startJudgingProxy, type JudgingProxy, type PassedExchange } from '../../passive/proxy/proxy.ts';
import type { UpstreamTimeouts } from '../../passive/proxy/proxy-deadline.ts';
import { SETTLE_MS } from '../../passive/proxy/proxy-receipt.ts';
import { sendRaw } from './proxy-origin.ts';
import { sendRequestTarget } from '../send-request-target.ts';
import { bomb, startBlackHole, startHostileTarget, type HostileTarget } from './proxy-hostile-target.ts';

let target: HostileTarget;
let proxy: JudgingProxy;
let seen: PassedExchange[];

async function proxyTo(base: string, timeouts: Partial<UpstreamTimeouts> = {}) {
  seen = [];
  proxy = await startJudgingProxy({ target: new URL(base), port: 0, sinks: [{ add: (exchange) => seen.push(exchange) }], timeouts });
  return proxy;
}

test.beforeEach(async () => {
  target = await startHostileTarget();
});

test.afterEach(async () => {
  await proxy.stop(0);
  await target.close();
});

/** The request and how long its answer took to come (or to fail). */
async function timed<T>(sending: Promise<T>): Promise<{ outcome: T | Error; ms: number }> {
  const t0 = performance.now();
  const outcome = await sending.catch((error: Error) => error);
  return { outcome, ms: performance.now() - t0 };
}

const noTimeouts = { connect: 0, firstByte: 0, idle: 0 };

test.describe('timeouts', () => {
  test('a target that never answers: the client gets a 504 within the first-byte timeout, saying which and how long; counted, not judged, and the proxy keeps serving', async () => {
    await proxyTo(target.base, { firstByteMs: 300 });
    const { outcome, ms } = await timed(sendRaw(`${proxy.base}/never?apikey=in-the-query`, 'GET', ['apikey', 'k-1']));
    const answer = outcome as Awaited<ReturnType<typeof sendRaw>>;
    expect(answer.status).toBe(504);
    expect(answer.body.toString()).toMatch(
      /^judging proxy: the target http:\/\/127\.0\.0\.1:\d+ did not begin its answer to GET \/v3\/never within 300 ms of the request \(the first-byte timeout, --first-byte-timeout-ms\)\n$/,
    );
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(3_000);
    expect(proxy.counts().timeouts).toEqual({ ...noTimeouts, firstByte: 1 });
    expect(proxy.counts().timeoutSamples).toEqual([
      'did not begin its answer to GET /v3/never within 300 ms of the request (the first-byte timeout, --first-byte-timeout-ms)',
    ]);
    expect((await sendRaw(`${proxy.base}/ok`)).status).toBe(200);
    const counts = await proxy.stop(1_000);
    expect(counts.exchanges).toBe(1);
    expect(seen.map((exchange) => exchange.request.url)).toEqual([`${target.base}/ok`]);
    // Its credential header is named for the reports, judged or not.
    expect(counts.credentialHeaders).toEqual(['apikey']);
  });

  test('a target whose connection never completes: a 504 within the connect timeout (the first-byte wait not yet begun)', async () => {
    const hole = await startBlackHole();
    try {
      await proxyTo(hole.base, { connectMs: 400, firstByteMs: 100 });
      const { outcome, ms } = await timed(sendRaw(`${proxy.base}/calls`));
      const answer = outcome as Awaited<ReturnType<typeof sendRaw>>;
      expect(answer.status).toBe(504);
      expect(answer.body.toString()).toMatch(
        /^judging proxy: the target http:\/\/127\.0\.0\.1:\d+ could not be connected to within 400 ms for GET \/v3\/calls \(the connect timeout, --connect-timeout-ms\)\n$/,
      );
      expect(ms).toBeGreaterThanOrEqual(390);
      expect(ms).toBeLessThan(3_000);
      expect(proxy.counts().timeouts).toEqual({ ...noTimeouts, connect: 1 });
      expect(proxy.counts().exchanges).toBe(0);
    } finally {
      await proxy.stop(0);
      await hole.close();
    }
  });

  test('a target that sends its headers and then goes quiet: the answer is cut off for the client at the idle timeout, counted, not judged', async () => {
    await proxyTo(target.base, { idleMs: 300 });
    const { outcome, ms } = await timed(sendRaw(`${proxy.base}/stall`));
    expect(outcome).toBeInstanceOf(Error);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(3_000);
    expect(proxy.counts().timeouts).toEqual({ ...noTimeouts, idle: 1 });
    expect(proxy.counts().timeoutSamples[0]).toBe(
      'went quiet for 300 ms in the middle of its answer to GET /v3/stall (the idle timeout, --idle-timeout-ms)',
    );
    const counts = await proxy.stop(1_000);
    expect(counts.exchanges).toBe(0);
    expect(seen).toEqual([]);
  });

  test('a target slow in all but never quiet for a whole timeout passes whole: the idle wait starts again with each piece', async () => {
    await proxyTo(target.base, { firstByteMs: 300, idleMs: 300 });
    // Ten pieces 100 ms apart: a second in all, three times each timeout.
    const answer = await sendRaw(`${proxy.base}/trickle?every=100&pieces=10`);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe(`${'piece\n'.repeat(9)}end\n`);
    const counts = await proxy.stop(1_000);
    expect(counts.timeouts).toEqual(noTimeouts);
    expect(counts.exchanges).toBe(1);
  });

  test('a proxy held up by its own work past the idle timeout does not blame the target: a piece waiting unread on its socket counts', async () => {
    await proxyTo(target.base, { idleMs: 300 });
    // The target (in this process too) sends a piece every 100 ms. Once the answer has begun, the
    // whole process is held 600 ms: when it runs again, the target's next piece is sent before the
    // proxy's idle timer fires, but not yet read. The target never went quiet; the proxy did.
    const body = await new Promise<string>((resolve, reject) => {
      const sent = request(`${proxy.base}/trickle?every=100&pieces=4`, (answer: IncomingMessage) => {
        const until = performance.now() + 600;
        while (performance.now() < until);
        let text = '';
        answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
        answer.on('end', () => resolve(text));
        answer.on('error', reject);
      });
      sent.on('error', reject);
      sent.end();
    });
    expect(body).toBe(`${'piece\n'.repeat(3)}end\n`);
    const counts = await proxy.stop(1_000);
    expect(counts.timeouts).toEqual(noTimeouts);
    expect(counts.exchanges).toBe(1);
  });

  test('a client that reads slowly is its own pace: an answer it leaves unread for three idle timeouts still reaches it whole', async () => {
    await proxyTo(target.base, { idleMs: 300 });
    const bytes = 8 * 2 ** 20;
    const body = await new Promise<number>((resolve, reject) => {
      const sent = request(`${proxy.base}/big?bytes=${bytes}`, (answer: IncomingMessage) => {
        answer.pause();
        let length = 0;
        setTimeout(() => {
          answer.on('data', (chunk: Buffer) => (length += chunk.length));
          answer.on('end', () => resolve(length));
          answer.resume();
        }, 900);
        answer.on('error', reject);
      });
      sent.on('error', reject);
      sent.end();
    });
    expect(body).toBe(bytes);
    const counts = await proxy.stop(1_000);
    expect(counts.timeouts).toEqual(noTimeouts);
    expect(counts.exchanges).toBe(1);
  });
});

test.describe('decompression', () => {
  for (const coding of ['gzip', 'deflate', 'br'] as const) {
    test(`a ${coding} answer that inflates to 64 MiB passes on unchanged, and is judged without its body, counted as too large to judge`, async () => {
      await proxyTo(target.base);
      const sent = await bomb(coding, 64);
      const answer = await sendRaw(`${proxy.base}/bomb?coding=${coding}&mib=64`);
      expect(answer.status).toBe(200);
      expect(answer.body.equals(sent)).toBe(true);
      await expect.poll(() => seen.length).toBe(1);
      const [exchange] = seen;
      // Lengths, not the bodies: a failure here must not print 64 MiB.
      expect(exchange!.response.bodyText?.length).toBeUndefined();
      expect(exchange!.passed.responseBody?.length).toBeUndefined();
      expect(exchange!.passed.responseBodyNotKept).toEqual({
        kind: 'too large',
        why: `over ${10 * 2 ** 20} bytes once decompressed (${coding})`,
      });
      expect(exchange!.passed.responseBytes).toBe(sent.length);
      expect(proxy.counts().bodiesTooLarge).toBe(1);
    });
  }

  test('an answer that inflates to exactly the bound is kept and judged whole; one that does not inflate is passed on and counted', async () => {
    await proxyTo(target.base);
    await sendRaw(`${proxy.base}/bomb?coding=gzip&mib=10`);
    await sendRaw(`${proxy.base}/corrupt`);
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]!.response.bodyText?.length).toBe(10 * 2 ** 20);
    expect(seen[0]!.response.bodyText!.trim()).toBe('');
    expect(seen[1]!.response.bodyText).toBeUndefined();
    expect(seen[1]!.passed.responseBodyNotKept?.kind).toBe('not decodable');
    expect(proxy.counts()).toMatchObject({ bodiesTooLarge: 0, bodiesNotDecodable: 1 });
  });
});

test.describe('the request line', () => {
  test("the absolute form naming the target's origin reaches the target as sent, and is answered as it is directly", async () => {
    await proxyTo(target.base);
    const absolute = `${target.base}/echo?type=audio`;
    const targetPort = Number(new URL(target.base).port);
    const direct = await sendRequestTarget(targetPort, absolute);
    const proxied = await sendRequestTarget(Number(new URL(proxy.address).port), absolute);
    // The target echoes the request target it received: the same both ways, absolute.
    expect(JSON.parse(direct.body)).toEqual({ ok: true, url: absolute });
    expect(proxied).toEqual(direct);
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]!.request.url).toBe(absolute);
  });

  test('the absolute form naming any other origin, the asterisk form, and the proxy itself are refused with a 400 that says why; nothing is forwarded or judged', async () => {
    await proxyTo(target.base);
    const port = Number(new URL(proxy.address).port);
    const elsewhere = await sendRequestTarget(port, 'http://elsewhere.example/v3/calls?apikey=secret-in-query');
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toBe(
      `judging proxy: refused GET http://elsewhere.example/v3/calls: the request names http://elsewhere.example, but this proxy forwards to ${new URL(target.base).origin} only: it is not a forward proxy (give a client the proxy's address as its base URL, not as its HTTP proxy)\n`,
    );
    expect((await sendRequestTarget(port, `${proxy.address}/v3/calls`)).status).toBe(400);
    expect((await sendRequestTarget(port, '*', { method: 'OPTIONS' })).body).toMatch(
      /^judging proxy: refused OPTIONS \*: the request target "\*" is neither a path/,
    );
    expect(target.arrivals).toEqual([]);
    const counts = await proxy.stop(1_000);
    expect(counts.refused).toBe(3);
    expect(counts.refusedSamples.join('\n')).not.toContain('secret-in-query');
    expect(counts.exchanges).toBe(0);
    expect(seen).toEqual([]);
  });
});

/** A raw client: connects, sends `GET path`, and reads nothing until told. */
async function rawClient(path: string): Promise<Socket> {
  const port = Number(new URL(proxy.address).port);
  const socket = await new Promise<Socket>((resolve) => {
    const opened: Socket = connect(port, '127.0.0.1', () => resolve(opened));
  });
  // Paused: what the proxy sends stays in the kernel, unread, as with a client that has given up.
  socket.pause();
  socket.write(`GET ${new URL(proxy.base).pathname}${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  return socket;
}

test.describe('client aborts', () => {
  test('a client that gives up after the proxy passed the whole answer, before reading it, is counted as an abort and not judged', async () => {
    await proxyTo(target.base);
    // Larger than a client reads ahead into its own memory (64 KiB), smaller than loopback's buffers hold.
    const socket = await rawClient('/big?bytes=200000');
    await expect.poll(() => target.arrivals.length, { intervals: [5] }).toBe(1);
    // The answer is out of the proxy, whole, into the client's unread buffer; the client then closes
    // without reading it (a socket closed with unread bytes in it resets the connection).
    await expect.poll(() => proxy.inFlight(), { intervals: [5] }).toBe(0);
    socket.destroy();
    await expect.poll(() => proxy.counts().clientAborts).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 200));
    const counts = await proxy.stop(1_000);
    expect(counts.exchanges).toBe(0);
    expect(counts.clientAborts).toBe(1);
    expect(seen).toEqual([]);
  });

  test('a client that gives up before the target answers is counted as an abort, and the request to the target dropped', async () => {
    await proxyTo(target.base);
    const socket = await rawClient('/never');
    await expect.poll(() => target.arrivals.length).toBe(1);
    socket.destroy();
    await expect.poll(() => proxy.counts().clientAborts).toBe(1);
    expect(proxy.inFlight()).toBe(0);
    expect(proxy.counts().timeouts).toEqual(noTimeouts);
  });

  test('a client that reads the whole answer and closes is judged; one that sends its next request has the answer before it judged at once', async () => {
    await proxyTo(target.base);
    const socket = await rawClient('/big?bytes=32768');
    let read = 0;
    socket.on('data', (chunk: Buffer) => (read += chunk.length));
    socket.resume();
    await expect.poll(() => read).toBeGreaterThan(32768);
    socket.end();
    await expect.poll(() => seen.length).toBe(1);

    // Kept alive: the second request shows the first answer was taken, before any settling time.
    await sendRaw(`${proxy.base}/ok?n=1`);
    await sendRaw(`${proxy.base}/ok?n=2`);
    expect(seen.map((exchange) => exchange.request.url)).toContain(`${target.base}/ok?n=1`);
    const counts = await proxy.stop(1_000);
    expect(counts.exchanges).toBe(3);
    expect(counts.clientAborts).toBe(0);
  });
});
