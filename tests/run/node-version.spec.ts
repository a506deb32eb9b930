// A Node outside package.json's engines is named, not discovered (issue 46, item 6): `npm test`
// stops before any test with one line naming the version; a run of the suite, `har` and the other
// commands go on (the suite runs on Playwright's Node) after one line saying the version is untested.
// Shown with a real Node 20, the npm registry's `node` package, where npm reaches a registry.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test, expect } from '@playwright/test';
import { selfTestsNodeLine, SUPPORTED_NODE_RANGE, supportsNode, untestedNodeLine } from '../../core/run/node-version.ts';
import { childEnv, PROJECT_ROOT } from '../runner/run-suite.ts';
import { cleanEnv, nodeBinary } from '../package/node-binaries.ts';
import { freshDir } from '../reports/report-runs.ts';
import { harEntry, writeHar } from '../passive/har-entries.ts';
import { STACK_TRACE } from '../suite/stack-trace.ts';

/** A Node major below the supported ones, past its end of life, which users still have. */
const OLD_MAJOR = 20;

test("the supported range is package.json's engines, and each version is placed in it or out", () => {
  const engines = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  expect(SUPPORTED_NODE_RANGE).toBe(engines);
  for (const version of ['22.13.0', '22.20.1', '24.0.0', '24.11.1', '25.2.0']) expect(supportsNode(version), version).toBe(true);
  for (const version of ['18.20.4', '20.19.5', '22.12.0', '23.11.0']) expect(supportsNode(version), version).toBe(false);
  expect(untestedNodeLine('24.1.0')).toBeUndefined();
  expect(selfTestsNodeLine('22.13.0')).toBeUndefined();
  expect(untestedNodeLine('20.19.5')).toContain('Node 20.19.5 is not one this package is tested on');
  expect(selfTestsNodeLine('20.19.5')).toContain('this is Node 20.19.5');
});

test(`on Node ${OLD_MAJOR}, npm test stops before any test with one line naming the version; har goes on after one line`, async () => {
  test.setTimeout(300_000);
  const node = nodeBinary(OLD_MAJOR, cleanEnv());
  test.skip('unavailable' in node, 'unavailable' in node ? node.unavailable : '');
  const { bin, version } = node as { bin: string; version: string };
  const env = { ...childEnv({ CONFORMANCE_SELF_TESTS: '1' }), PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  const run = (args: string[], extra: Record<string, string> = {}) =>
    spawnSync(join(bin, 'node'), args, { cwd: PROJECT_ROOT, env: { ...env, ...extra }, encoding: 'utf8', timeout: 120_000 });

  const selfTests = run([join(PROJECT_ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--project=self', '--list']);
  expect(selfTests.status, selfTests.stderr).toBe(2);
  expect(selfTests.stderr.trim()).toBe(selfTestsNodeLine(version.slice(1)));
  expect(selfTests.stdout).not.toMatch(/Listing tests|Total: \d+ tests?/);

  const har = writeHar([
    harEntry({
      url: 'https://calls.example.test/v3/calls',
      headers: { apikey: 'a-key' },
      status: 200,
      body: JSON.parse(readFileSync(join(PROJECT_ROOT, 'tests/real-payloads/list-calls.json'), 'utf8')),
    }),
  ]);
  const judged = run(['--import', 'tsx', join(PROJECT_ROOT, 'cli/conformance.ts'), 'har', har], {
    CONFORMANCE_SELF_TESTS: '',
    REPORT_DIR: freshDir('old-node-har'),
  });
  expect(judged.stderr.trim().split('\n')[0]).toBe(untestedNodeLine(version.slice(1)));
  expect(judged.stdout).toContain('Passive verdict:');
  expect(`${judged.stdout}${judged.stderr}`).not.toMatch(STACK_TRACE);
});
