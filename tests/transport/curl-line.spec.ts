// The curl line of a failure sends the request that failed, run by curl itself: a header sent empty
// (the AUTH-EMPTY-KEY evidence) arrives empty, not missing. curl reads `-H 'name: '` as "remove this
// header", so the line had sent a request without it, another case of the specification's.
import { test, expect } from '@playwright/test';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { curlFor, type Exchange } from '../../core/transport/exchange.ts';

const hasCurl = spawnSync('curl', ['--version']).status === 0;

test('a header sent empty arrives empty from the curl line, a header with a value with its value', async () => {
  test.skip(!hasCurl, 'curl is not installed here (apt-get install -y curl)');
  const seen: Array<Record<string, string | string[] | undefined>> = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.end('{}');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const { port } = server.address() as AddressInfo;
    const exchange: Exchange = {
      operation: 'listCalls',
      request: { method: 'GET', url: `http://127.0.0.1:${port}/v3/calls`, headers: { apikey: '', 'x-blank': '  ', 'x-kept': 'v' } },
      response: { status: 401, headers: {}, body: undefined, text: '', isJson: false },
      durationMs: 1,
    };
    const line = curlFor(exchange);
    expect(line).toContain("-H 'apikey;'");
    // Asynchronously: the server answering it lives in this process.
    await promisify(execFile)('sh', ['-c', line], { timeout: 10_000 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ apikey: '', 'x-blank': '', 'x-kept': 'v' });
  } finally {
    server.close();
  }
});
