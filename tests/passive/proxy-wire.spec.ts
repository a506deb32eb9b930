// The judging proxy reads HTTP/1.1 on the wire itself (passive/proxy/proxy-wire.ts) and passes
// the bytes on as they come, so where each message ends is its own reading: chunked bodies split
// anywhere, answers framed by the close of the connection, pipelined requests, interim answers
// (100 Continue), and the requests and answers it must refuse rather than pass on with another
// meaning. Against a raw target on loopback that answers exactly the bytes each test gives it.
import { test, expect } from '@playwright/test';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { startJudgingProxy, type JudgingProxy, type PassedExchange } from '../../passive/proxy/proxy.ts';
import { BodyReader, answerFraming, requestFraming } from '../../passive/proxy/proxy-wire.ts';

test.describe('where a body ends', () => {
  test('a chunked body split at every byte: each piece says how much of it is the body, the content comes without the framing, trailers included', () => {
    const wire = Buffer.from('5;ext=1\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\nGET /next');
    const content: Buffer[] = [];
    const reader = new BodyReader({ kind: 'chunked' }, (part) => content.push(Buffer.from(part)));
    let used = 0;
    for (let at = 0; at < wire.length && !reader.done; at += 1) used += reader.feed(wire.subarray(at, at + 1));
    expect(reader.done).toBe(true);
    expect(wire.subarray(used).toString()).toBe('GET /next');
    expect(Buffer.concat(content).toString()).toBe('hello world');
  });

  test('a length takes that many bytes and no more; the close ends only a body framed by it; bad framing is refused', () => {
    const reader = new BodyReader({ kind: 'length', length: 4 }, () => undefined);
    expect(reader.feed(Buffer.from('abcdef'))).toBe(4);
    expect(reader.done).toBe(true);
    const cut = new BodyReader({ kind: 'length', length: 4 }, () => undefined);
    cut.feed(Buffer.from('ab'));
    expect(cut.closed()).toBe(false);
    const untilClose = new BodyReader({ kind: 'until close' }, () => undefined);
    expect(untilClose.feed(Buffer.from('anything'))).toBe(8);
    expect(untilClose.closed()).toBe(true);
    expect(() => new BodyReader({ kind: 'chunked' }, () => undefined).feed(Buffer.from('zz\r\n'))).toThrow(/not hexadecimal/);
    expect(
      requestFraming([
        ['Content-Length', '3'],
        ['Transfer-Encoding', 'chunked'],
      ]),
    ).toEqual({
      error: 'both Transfer-Encoding and Content-Length',
    });
    expect(
      requestFraming([
        ['Content-Length', '3'],
        ['Content-Length', '4'],
      ]),
    ).toHaveProperty('error');
    expect(requestFraming([['Transfer-Encoding', 'gzip']])).toHaveProperty('error');
    expect(requestFraming([])).toEqual({ kind: 'length', length: 0 });
    expect(answerFraming('HEAD', 200, [['Content-Length', '10']])).toEqual({ kind: 'length', length: 0 });
    expect(answerFraming('GET', 304, [])).toEqual({ kind: 'length', length: 0 });
    expect(answerFraming('GET', 200, [])).toEqual({ kind: 'until close' });
  });
});

/** A target that reads each request head and answers what `answer` returns for it (raw bytes; `close` ends the connection after). */
async function rawTarget(answer: (head: string, socket: Socket) => { bytes: string; close?: boolean } | undefined) {
  const heads: string[] = [];
  const server: Server = createServer((socket) => {
    let pending = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        heads.push(head);
        const reply = answer(head, socket);
        if (reply === undefined) continue;
        if (reply.close) socket.end(reply.bytes, 'latin1');
        else socket.write(reply.bytes, 'latin1');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`,
    heads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sends `bytes` to the proxy on a connection of its own, and reads until the proxy closes it or `until` matches what came. */
function exchangeRaw(proxy: JudgingProxy, bytes: string, until?: RegExp, more?: (socket: Socket, got: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(proxy.address).port), '127.0.0.1', () => socket.write(bytes, 'latin1'));
    let got = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      got += chunk;
      more?.(socket, got);
      if (until?.test(got)) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
}

/** Sends `bytes` to `address` and reads to the connection's end: what came, and how it ended (closed, or the error's code). */
function exchangeToTheEnd(
  address: string,
  bytes: string,
  more: (socket: Socket, got: string) => void,
): Promise<{ got: string; ended: string }> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(address).port), '127.0.0.1', () => socket.write(bytes, 'latin1'));
    let got = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      got += chunk;
      more(socket, got);
    });
    socket.on('end', () => resolve({ got, ended: 'closed' }));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ got, ended: error.code ?? error.message }));
  });
}

let seen: PassedExchange[];
let proxy: JudgingProxy;
let target: Awaited<ReturnType<typeof rawTarget>>;

async function proxyTo(answer: Parameters<typeof rawTarget>[0]) {
  target = await rawTarget(answer);
  seen = [];
  proxy = await startJudgingProxy({ target: new URL(target.base), port: 0, sinks: [{ add: (exchange) => seen.push(exchange) }] });
}

test.describe('through the proxy', () => {
  test.afterEach(async () => {
    await proxy.stop(500);
    await target.close();
  });

  test('an answer with neither a length nor chunks ends with its connection: passed whole, the client connection closed after it, and judged with its body', async () => {
    await proxyTo(() => ({ bytes: 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"data":[]}', close: true }));
    const got = await exchangeRaw(proxy, `GET /v3/calls HTTP/1.1\r\nHost: x\r\napikey: k\r\n\r\n`);
    expect(got).toBe('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"data":[]}');
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]!.response.bodyText).toBe('{"data":[]}');
    expect(proxy.counts().upstreamErrors).toBe(0);
  });

  test('pipelined requests, sent in one write, are answered in order, each on the same connection to the target, each judged', async () => {
    await proxyTo((head) => {
      const path = head.split(' ')[1]!;
      return { bytes: `HTTP/1.1 200 OK\r\nContent-Length: ${path.length}\r\n\r\n${path}` };
    });
    const got = await exchangeRaw(
      proxy,
      'GET /v3/one HTTP/1.1\r\nHost: x\r\n\r\nGET /v3/two HTTP/1.1\r\nHost: x\r\n\r\nGET /v3/three HTTP/1.1\r\nHost: x\r\n\r\n',
      /\/v3\/three$/,
    );
    expect(got.match(/\/v3\/\w+$|\/v3\/\w+(?=HTTP)/g)).toEqual(['/v3/one', '/v3/two', '/v3/three']);
    expect(target.heads.map((head) => head.split('\r\n')[0])).toEqual([
      'GET /v3/one HTTP/1.1',
      'GET /v3/two HTTP/1.1',
      'GET /v3/three HTTP/1.1',
    ]);
    await expect.poll(() => seen.length).toBe(3);
  });

  test('a 100 Continue passes on as it came, and the final answer after it; the request body follows the interim answer', async () => {
    await proxyTo((head, socket) => {
      if (!/expect: 100-continue/i.test(head)) return undefined;
      socket.write('HTTP/1.1 100 Continue\r\n\r\n');
      socket.once('data', (body: string) =>
        socket.write(`HTTP/1.1 201 Created\r\nContent-Length: ${body.length}\r\n\r\n${body}`, 'latin1'),
      );
      return undefined;
    });
    const got = await exchangeRaw(
      proxy,
      'POST /v3/x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n',
      /201 Created[\s\S]*\r\n\r\nbody$/,
      (socket, got) => got === 'HTTP/1.1 100 Continue\r\n\r\n' && socket.write('body'),
    );
    expect(got).toBe('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 4\r\n\r\nbody');
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]!.response.status).toBe(201);
    expect(seen[0]!.request.bodyText).toBe('body');
  });

  test('requests the proxy cannot read one way only are refused with a 400 that says why, and nothing reaches the target', async () => {
    await proxyTo(() => ({ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n' }));
    const refusals = await Promise.all(
      [
        'GET /v3/calls HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n',
        'POST /v3/calls HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        'GET /v3/calls HTTP/1.1\r\n\r\n',
        'GET /v3/calls HTTP/2.0\r\nHost: x\r\n\r\n',
      ].map((request) => exchangeRaw(proxy, request)),
    );
    for (const refusal of refusals) expect(refusal).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*\r\n\r\njudging proxy: refused /);
    expect(refusals[1]).toContain('both Transfer-Encoding and Content-Length');
    expect(refusals[2]).toContain('no Host header');
    expect(target.heads).toEqual([]);
    expect(seen).toEqual([]);
  });

  test('a target that closes a kept-alive connection as the next request reaches it: the client connection closes with no answer, as directly, never a 502; counted, not judged', async () => {
    // The race every keep-alive client meets: the target's idle timer fires as a request arrives.
    // Directly, the client sees its connection closed with no answer, and may send the request
    // again on a new one; a 502 from the proxy would be an answer the target never gave.
    let requests = 0;
    await proxyTo(() => (++requests === 1 ? { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}' } : { bytes: '', close: true }));
    const request = 'GET /v3/calls HTTP/1.1\r\nHost: x\r\n\r\n';
    const viaProxy = await exchangeRaw(proxy, request, undefined, (socket, got) => {
      if (got === 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}') socket.write(request, 'latin1');
    });
    requests = 0;
    const direct = await exchangeRaw({ address: new URL(target.base).origin } as JudgingProxy, request, undefined, (socket, got) => {
      if (got === 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}') socket.write(request, 'latin1');
    });
    expect(direct).toBe('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
    expect(viaProxy).toBe(direct);
    expect(proxy.counts().keptAliveClosed).toBe(1);
    expect(proxy.counts().upstreamErrors).toBe(0);
    await expect.poll(() => seen.length).toBe(1);
  });

  test('a target that resets a kept-alive connection as the next request reaches it: the client connection is reset with no answer, as directly, never a 502; counted, not judged', async () => {
    let requests = 0;
    await proxyTo((_head, socket) => {
      if (++requests === 1) return { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}' };
      socket.resetAndDestroy();
      return undefined;
    });
    const request = 'GET /v3/calls HTTP/1.1\r\nHost: x\r\n\r\n';
    const again = (socket: Socket, got: string) =>
      got === 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}' && socket.write(request, 'latin1');
    const viaProxy = await exchangeToTheEnd(proxy.address, request, again);
    requests = 0;
    const direct = await exchangeToTheEnd(new URL(target.base).origin, request, again);
    expect(direct).toEqual({ got: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}', ended: 'ECONNRESET' });
    expect(viaProxy).toEqual(direct);
    expect(proxy.counts().keptAliveClosed).toBe(1);
    expect(proxy.counts().upstreamErrors).toBe(0);
    await expect.poll(() => seen.length).toBe(1);
  });

  test('an answer that is not HTTP gets the client a 502 that says why, counted and not judged', async () => {
    await proxyTo(() => ({ bytes: 'SSH-2.0-OpenSSH\r\n\r\n' }));
    const got = await exchangeRaw(proxy, 'GET /v3/calls HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(got).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(got).toContain('sent an answer that cannot be passed on for GET /v3/calls: a status line that is not HTTP/1.x');
    expect(proxy.counts().upstreamErrors).toBe(1);
    expect(seen).toEqual([]);
  });
});
