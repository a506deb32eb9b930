// The /tap stream reader's own splitter (passive/file-values.ts) finds the JSON values of a file as
// the token stream it replaced (stream-json) reads them: pretty-printed one after another, values
// larger than its buffer, a string's escaped quotes and backslashes cut by the end of a read, values
// that are bare strings, numbers or literals; and it refuses what no value begins with, and a file
// that ends inside a value.
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createReadStream } from 'node:fs';
import parserStream from 'stream-json';
import streamValues from 'stream-json/streamers/stream-values.js';
import { forEachValue } from '../../passive/file-values.ts';
import { freshDir } from '../fresh-dir.ts';

async function streamed(path: string): Promise<unknown[]> {
  const values: unknown[] = [];
  await pipeline(
    createReadStream(path),
    parserStream({ jsonStreaming: true }),
    streamValues.asStream(),
    async (items: AsyncIterable<{ value: unknown }>) => {
      for await (const { value } of items) values.push(value);
    },
  );
  return values;
}

async function split(path: string): Promise<unknown[]> {
  const values: unknown[] = [];
  await forEachValue(path, (bytes) => values.push(JSON.parse(bytes.toString('utf8'))));
  return values;
}

/** A string whose escaped quote's backslash is the last byte of the first read (1 MiB), once the JSON around it is written. */
function cutAtEscape(): string {
  const head = '{"a": "';
  const fill = 'x'.repeat(2 ** 20 - head.length - 1);
  return `${head}${fill}\\"\\\\\\\\", "b": [1, {"c": "\\\\"}]}`;
}

test('values found as the token stream finds them, however they are laid out and cut', async () => {
  const dir = freshDir('passive-file-values');
  const trace = {
    http_buffered_trace: {
      request: { headers: [{ key: ':path', value: '/v3/calls' }] },
      response: { body: { as_bytes: 'QUJD'.repeat(400_000) } },
    },
  };
  const cases: Record<string, string> = {
    'pretty.json': [trace, { a: '}{][' }, trace].map((value) => JSON.stringify(value, null, 2)).join('\n'),
    'dense.json': `${JSON.stringify(trace)}${JSON.stringify([1, '"', { b: '\\' }])}${JSON.stringify(trace)}`,
    'escapes.json': `${cutAtEscape()}\n${cutAtEscape()}`,
    'bare.json': ' "one" 2 true\nnull[3]{"x":-1.5e3} 4 ',
  };
  for (const [name, text] of Object.entries(cases)) {
    const path = join(dir, name);
    writeFileSync(path, text);
    expect(await split(path), name).toEqual(await streamed(path));
  }
});

test('what no value begins with, and a file that ends inside a value, are refused', async () => {
  const dir = freshDir('passive-file-values-bad');
  for (const [name, text] of Object.entries({ 'close.json': '{"a":1}\n}', 'open.json': '{"a":1}\n{"b": "c', 'comma.json': ',{}' })) {
    const path = join(dir, name);
    writeFileSync(path, text);
    await expect(split(path), name).rejects.toThrow(SyntaxError);
    await expect(streamed(path), name).rejects.toThrow();
  }
});
