// A client's next request as the judging proxy reads it from the bytes its connection has sent
// (passive/proxy/proxy-request-head.ts), apart from any socket: where its head ends, what is left
// after it, the heads refused before anything reaches the target, and the head the target gets.
import { test, expect } from '@playwright/test';
import { forwardedHead, hostRefusal, takeRequestHead } from '../../passive/proxy/proxy-request-head.ts';

const bytes = (text: string) => Buffer.from(text, 'latin1');

test('a whole head is taken with its framing and what it is, empty lines before it skipped; the bytes after it are left as they came', () => {
  const taken = takeRequestHead(bytes('\r\n\r\nPOST /v3/calls?apikey=k HTTP/1.1\r\nHost: proxy\r\nContent-Length: 3\r\n\r\nabcGET /next'));
  if (!('head' in taken)) throw new Error(`no head: ${JSON.stringify(taken)}`);
  expect(taken.pending.length).toBe(0);
  expect(taken.rest.toString('latin1')).toBe('abcGET /next');
  expect(taken.head).toMatchObject({
    startLine: 'POST /v3/calls?apikey=k HTTP/1.1',
    method: 'POST',
    target: '/v3/calls?apikey=k',
    version: '1.1',
    framing: { kind: 'length', length: 3 },
    hosts: 1,
    // The query may carry a key: it never goes into the console or the report.
    what: 'POST /v3/calls',
  });
  expect(hostRefusal(taken.head)).toBeUndefined();
});

test('until a head is whole it waits: for the next request when nothing but empty lines came, else for the rest of the head, keeping what came', () => {
  expect(takeRequestHead(bytes('\r\n'))).toEqual({ pending: bytes(''), wait: 'idle' });
  expect(takeRequestHead(bytes('\r\nGET / HTTP/1.1\r\nHost: x\r\n'))).toEqual({
    pending: bytes('GET / HTTP/1.1\r\nHost: x\r\n'),
    wait: 'head',
  });
});

test('a head over 16 KiB is refused with a 431 and one that is not HTTP/1.x with a 400, each saying why', () => {
  const long = takeRequestHead(bytes(`GET / HTTP/1.1\r\nX-Long: ${'a'.repeat(17 * 1024)}`));
  expect(long).toMatchObject({ refused: { status: 431, body: 'judging proxy: refused a request whose head is over 16 KiB\n' } });
  expect(takeRequestHead(bytes('GET / HTTP/2.0\r\nHost: x\r\n\r\n'))).toEqual({
    pending: bytes(''),
    refused: {
      status: 400,
      body: 'judging proxy: refused a request that is not HTTP/1.x: its request line is not "METHOD target HTTP/1.x"\n',
    },
  });
});

test('HTTP/1.1 needs exactly one Host, HTTP/1.0 at most one', () => {
  const head = (text: string) => {
    const taken = takeRequestHead(bytes(text));
    if (!('head' in taken)) throw new Error(`no head: ${JSON.stringify(taken)}`);
    return taken.head;
  };
  expect(hostRefusal(head('GET / HTTP/1.1\r\n\r\n'))).toBe('no Host header');
  expect(hostRefusal(head('GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n'))).toBe('more than one Host header');
  expect(hostRefusal(head('GET / HTTP/1.0\r\n\r\n'))).toBeUndefined();
  expect(hostRefusal(head('GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n'))).toBe('more than one Host header');
});

test('the target gets the head as received, but for its own Host (added when there was none) and without the headers addressed to the proxy', () => {
  const taken = takeRequestHead(
    bytes(
      'GET /v3/calls HTTP/1.1\r\nhost: proxy:8089\r\nProxy-Authorization: Basic x\r\nUpgrade: h2c\r\nProxy-Connection: keep-alive\r\nX-A:  b \r\n\r\n',
    ),
  );
  if (!('head' in taken)) throw new Error(`no head: ${JSON.stringify(taken)}`);
  expect(forwardedHead(taken.head, 'target:443').toString('latin1')).toBe('GET /v3/calls HTTP/1.1\r\nhost: target:443\r\nX-A: b\r\n\r\n');
  const hostless = takeRequestHead(bytes('GET / HTTP/1.0\r\nAccept: */*\r\n\r\n'));
  if (!('head' in hostless)) throw new Error(`no head: ${JSON.stringify(hostless)}`);
  expect(forwardedHead(hostless.head, 'target').toString('latin1')).toBe('GET / HTTP/1.0\r\nHost: target\r\nAccept: */*\r\n\r\n');
});
