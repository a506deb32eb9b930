// The judging proxy passes everything through unchanged: each request reaches the target as it
// would directly (method, path, query, headers in order and letter case, body), with the target's
// Host, and each answer reaches the client as the target sent it (status and its text, headers,
// body bytes: binary, chunked, compressed, empty). A target it cannot reach gets the client a 502
// that says so, counted, never judged; an answer cut off is cut off for the client too. Each whole
// exchange reaches the sinks once its answer is out, with the bodies as the application reads them.
import { test, expect } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { startJudgingProxy, type JudgingProxy, type PassedExchange } from '../../passive/proxy/proxy.ts';
import { freeLoopbackPort } from '../runner/run-suite.ts';
import { BINARY, endToEndHeaders, GZIPPED_JSON, sendRaw, startOrigin, type Origin } from './proxy-origin.ts';

let origin: Origin;
let proxy: JudgingProxy;
let seen: PassedExchange[];

test.beforeEach(async () => {
  origin = await startOrigin();
  seen = [];
  proxy = await startJudgingProxy({ target: new URL(origin.base), port: 0, sinks: [{ add: (exchange) => seen.push(exchange) }] });
});

test.afterEach(async () => {
  await proxy.stop(1_000);
  await origin.close();
});

/** The same request sent to the target directly and through the proxy: both answers, and what reached the target each time. */
async function bothWays(path: string, method = 'GET', headers: string[] = [], body?: Buffer | Buffer[]) {
  const direct = await sendRaw(`${origin.base}${path}`, method, headers, body);
  const directArrival = origin.arrivals.at(-1)!;
  const proxied = await sendRaw(`${proxy.base}${path}`, method, headers, body);
  const proxiedArrival = origin.arrivals.at(-1)!;
  return { direct, proxied, directArrival, proxiedArrival };
}

function expectSameAnswer(both: Awaited<ReturnType<typeof bothWays>>) {
  expect(both.proxied.status).toBe(both.direct.status);
  expect(both.proxied.statusMessage).toBe(both.direct.statusMessage);
  expect(endToEndHeaders(both.proxied.rawHeaders)).toEqual(endToEndHeaders(both.direct.rawHeaders));
  expect(both.proxied.body.equals(both.direct.body)).toBe(true);
}

function expectSameRequest(both: Awaited<ReturnType<typeof bothWays>>) {
  expect(both.proxiedArrival.method).toBe(both.directArrival.method);
  expect(both.proxiedArrival.url).toBe(both.directArrival.url);
  // Host included: the proxy sends the target's, as the direct request did.
  expect(endToEndHeaders(both.proxiedArrival.rawHeaders)).toEqual(endToEndHeaders(both.directArrival.rawHeaders));
  expect(both.proxiedArrival.body.equals(both.directArrival.body)).toBe(true);
}

test('a POST with a body, repeated headers in their own letter case and a query string reaches the target as it would directly, and its answer comes back the same', async () => {
  const headers = ['X-Custom', 'A', 'x-custom', 'b', 'apikey', 'demo-key', 'Content-Type', 'application/json', 'Content-Length', '27'];
  const both = await bothWays('/echo?type=audio&uid=a%20b&uid=c', 'POST', headers, Buffer.from('{"messageId": 7, "x": "é"}'));
  expectSameRequest(both);
  expectSameAnswer(both);
  expect(both.proxied.body.toString()).toBe('{"messageId": 7, "x": "é"}');
  expect(both.proxiedArrival.rawHeaders).toContain(new URL(origin.base).host);
});

test('a request body sent in chunks, without a length, reaches the target whole, as do DELETE with a body and HEAD', async () => {
  const chunked = await bothWays(
    '/echo',
    'POST',
    ['Content-Type', 'application/octet-stream'],
    [BINARY.subarray(0, 100), BINARY.subarray(100)],
  );
  expectSameRequest(chunked);
  expectSameAnswer(chunked);
  expect(chunked.proxiedArrival.body.equals(BINARY)).toBe(true);

  const deleted = await bothWays('/echo?id=1', 'DELETE', ['Content-Type', 'text/plain', 'Content-Length', '5'], Buffer.from('gone!'));
  expectSameRequest(deleted);
  expectSameAnswer(deleted);

  const head = await bothWays('/binary', 'HEAD');
  expectSameRequest(head);
  expectSameAnswer(head);
  expect(head.proxied.body.length).toBe(0);
});

test('binary, chunked, compressed and empty answers come back byte for byte, status texts and headers kept', async () => {
  const binary = await bothWays('/binary');
  expectSameAnswer(binary);
  expect(binary.proxied.status).toBe(203);
  expect(binary.proxied.statusMessage).toBe('Fine Thanks');
  expect(binary.proxied.body.equals(BINARY)).toBe(true);

  const chunked = await bothWays('/chunked');
  expectSameAnswer(chunked);
  expect(chunked.proxied.body.toString()).toBe('part 0\npart 1\npart 2\npart 3\npart 4\nend\n');

  // Passed on compressed, as the target sent it.
  const gzip = await bothWays('/gzip', 'GET', ['Accept-Encoding', 'gzip']);
  expectSameAnswer(gzip);
  expect(gzip.proxied.body.equals(gzipSync(Buffer.from(JSON.stringify(GZIPPED_JSON))))).toBe(true);

  expectSameAnswer(await bothWays('/empty', 'GET'));
  expectSameAnswer(await bothWays('/nowhere?x=1', 'PUT', ['Content-Length', '0']));
});

test('each whole exchange reaches the sinks after its answer, with its bodies as the application reads them (decompressed) and its URL at the target', async () => {
  await sendRaw(`${proxy.base}/gzip?type=audio`, 'GET', ['Accept-Encoding', 'gzip', 'apikey', 'k-123']);
  await sendRaw(`${proxy.base}/echo`, 'POST', ['Content-Type', 'application/json'], Buffer.from('{"a":1}'));
  await expect.poll(() => seen.length).toBe(2);
  const [gzip, echo] = seen;
  expect(gzip!.source).toBe('proxy, exchange 1');
  expect(gzip!.request.url).toBe(`${origin.base}/gzip?type=audio`);
  expect(gzip!.request.headers).toContainEqual(['apikey', 'k-123']);
  expect(JSON.parse(gzip!.response.bodyText!)).toEqual(GZIPPED_JSON);
  expect(gzip!.response.headers).toContainEqual(['content-encoding', 'gzip']);
  expect(echo!.request.bodyText).toBe('{"a":1}');
  expect(echo!.response.bodyText).toBe('{"a":1}');
  expect(echo!.durationMs).toBeGreaterThan(0);
  expect(proxy.counts().exchanges).toBe(2);
});

test('a target that cannot be reached: the client gets a 502 that says so, the proxy counts it, judges nothing and keeps serving', async () => {
  const port = await freeLoopbackPort();
  const nowhere = await startJudgingProxy({
    target: new URL(`http://127.0.0.1:${port}/v3`),
    port: 0,
    sinks: [{ add: (exchange) => seen.push(exchange) }],
  });
  try {
    const answer = await sendRaw(`${nowhere.base}/calls?apikey=secret-in-query`);
    expect(answer.status).toBe(502);
    expect(answer.body.toString()).toMatch(
      /^judging proxy: the target http:\/\/127\.0\.0\.1:\d+ could not be reached for GET \/v3\/calls: .*ECONNREFUSED/,
    );
    expect(answer.body.toString()).not.toContain('secret-in-query');
    expect((await sendRaw(`${nowhere.base}/calls`)).status).toBe(502);
    const counts = await nowhere.stop(1_000);
    expect(counts.upstreamErrors).toBe(2);
    expect(counts.exchanges).toBe(0);
    expect(seen).toEqual([]);
  } finally {
    await nowhere.stop(0);
  }
});

test('an answer the target cuts off half-way is cut off for the client too, counted, and not judged', async () => {
  await expect(sendRaw(`${proxy.base}/cut`)).rejects.toThrow();
  await expect.poll(() => proxy.counts().upstreamErrors).toBe(1);
  expect(proxy.counts().exchanges).toBe(0);
  expect(seen).toEqual([]);
});

test('stopping lets an exchange in flight finish and reach the sinks, and refuses new connections', async () => {
  const slow = sendRaw(`${proxy.base}/slow?ms=1000`);
  await expect.poll(() => proxy.inFlight(), { intervals: [10] }).toBe(1);
  const counts = await proxy.stop(5_000);
  expect((await slow).body.toString()).toBe('slow\n');
  expect(counts.exchanges).toBe(1);
  expect(counts.cutAtStop).toBe(0);
  expect(seen.length).toBe(1);
  await expect(sendRaw(`${proxy.base}/echo`)).rejects.toThrow();
});

test('a stop whose wait runs out cuts the exchanges still in flight, counts them and judges none of them', async () => {
  // Its failure is taken as it comes: the stop resolves only once the cut connections have closed.
  const slow = sendRaw(`${proxy.base}/slow?ms=5000`).catch((error: Error) => error);
  await expect.poll(() => proxy.inFlight(), { intervals: [10] }).toBe(1);
  const counts = await proxy.stop(100);
  expect(await slow).toBeInstanceOf(Error);
  // Whatever the cut sets off comes within a moment: the counts are read after it.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(counts.cutAtStop).toBe(1);
  // Cut by the proxy, neither given up by its client nor failed by the target: counted once, as cut.
  expect(counts.clientAborts).toBe(0);
  expect(counts.upstreamErrors).toBe(0);
  expect(counts.exchanges).toBe(0);
  expect(seen).toEqual([]);
});
