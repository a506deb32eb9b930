// A recording is as untrusted as a target. `har` on entries a hostile server could have answered:
// - a list and a Get Call nested 100,000 levels deep (every recursive walk of them overflows the
//   stack: `har` once crashed with a RangeError and a stack trace, exit 1): judged, each failing
//   its envelope, with the documented exit code for violations and no stack trace;
// - control characters in a content-type and in the keys of an error's details (Ajv's paths name
//   them): nowhere raw in stdout, stderr or any report file, each there as its escape.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, freshDir } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { STACK_TRACE } from '../suite/stack-trace.ts';
import { harEntry, writeHar } from './har-entries.ts';

const BASE = 'https://api.example.test/v3';
const KEY = { apikey: 'recorded-key-0123456789' };
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('bodies nested 100,000 levels deep: each fails its envelope, exit 1, no stack trace', async () => {
  const depth = 100_000;
  const har = writeHar([
    harEntry({ url: `${BASE}/calls`, headers: KEY, status: 200, body: `{"data":${'['.repeat(depth)}${']'.repeat(depth)}}` }),
    harEntry({ url: `${BASE}/calls/v1.abc`, headers: KEY, status: 200, body: `{"data":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}` }),
  ]);
  const dir = freshDir('har-deep');
  const run = await runScript(CLI.conformance, ['har', har], { REPORT_DIR: dir });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.code, output).toBe(1);
  expect(output).not.toMatch(STACK_TRACE);
  expect(output).not.toMatch(/RangeError|Maximum call stack/);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { requirements: Array<{ id: string; status: string }> };
  const failed = results.requirements.filter((requirement) => requirement.status === 'fail').map((requirement) => requirement.id);
  expect(failed).toEqual(expect.arrayContaining(['PAGINATION-ENVELOPE', 'CALLS-GET-OK']));
  expect(readFileSync(join(dir, 'results.json'), 'utf8')).toMatch(/nests more than 64 levels/);
});

test("control characters in a recording's content-type and error details reach no output raw", async () => {
  const entry = harEntry({
    url: `${BASE}/calls/v1.unknown`,
    headers: KEY,
    status: 404,
    body: { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'no', details: { '\u001b[2J\u0007\r\u0000\u202e': 'x' } } },
  });
  entry.response.headers = [{ name: 'Content-Type', value: 'text/plain; x=\u009b31m\u009d0;\u001b]title\u0007' }];
  const dir = freshDir('har-controls');
  const run = await runScript(CLI.conformance, ['har', writeHar([entry])], { REPORT_DIR: dir });
  const written: Array<[string, string]> = [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ...readdirSync(dir).map((name): [string, string] => [name, readFileSync(join(dir, name), 'utf8')]),
  ];
  expect(run.code, run.stdout).toBe(1);
  expect(written.map(([, text]) => text).join('\n')).toContain('\\u009b31m');
  expect(written.filter(([, text]) => RAW.test(text)).map(([name]) => name)).toEqual([]);
});
