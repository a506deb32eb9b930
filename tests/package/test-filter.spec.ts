// A rerun line names a test's TypeScript file; compiled, Playwright collects the JavaScript beside
// its map and places the test in the TypeScript, and matches one filter against both, as a regular
// expression (Playwright's forceRegExp: new RegExp(file, 'gi')). The installed runs of
// installed.spec.ts replay such a line; these check the widening itself, without a package.
import { test, expect } from '@playwright/test';
import { testFilter, testFilterArgs } from '../../core/run/package-paths.ts';

const PACKAGE = '/work/project/node_modules/calls-conformance';
const COMPILED_FILE = `${PACKAGE}/dist/suite/calls-get/get-call.spec.js`;
const PLACED_IN = `${PACKAGE}/suite/calls-get/get-call.spec.ts`;

/** Playwright's reading of a location filter: the file as a regular expression, then the line. */
function matches(filter: string, file: string): boolean {
  const [, pattern] = /^(.*?)(?::\d+(?::\d+)?)?$/.exec(filter)!;
  return new RegExp(pattern!, 'gi').test(file);
}

test('compiled, a filter naming a TypeScript test file matches the compiled file and the place its map gives, and keeps its line', () => {
  for (const filter of [
    'node_modules/calls-conformance/suite/calls-get/get-call.spec.ts:15',
    'suite/calls-get/get-call.spec.ts',
    'calls-get/get-call.spec.ts:15:3',
  ]) {
    const widened = testFilter(filter, true);
    expect(widened.endsWith(filter.match(/(:\d+)*$/)![0]), widened).toBe(true);
    expect(matches(widened, COMPILED_FILE), `${widened} on the compiled file`).toBe(true);
    expect(matches(widened, PLACED_IN), `${widened} on the TypeScript`).toBe(true);
    expect(matches(widened, `${PACKAGE}/dist/suite/calls-get/get-call-other.spec.js`), widened).toBe(false);
  }
});

test('other filters, and anything from the clone, pass unchanged; option values are not filters', () => {
  for (const filter of ['suite/calls-list', 'get-call', 'node_modules/calls-conformance/suite/calls-get/get-call.spec.ts:15']) {
    expect(testFilter(filter, false)).toBe(filter);
  }
  expect(testFilter('suite/calls-list', true)).toBe('suite/calls-list');
  expect(testFilterArgs(['--grep', 'x.spec.ts', '-x', 'a.spec.ts:3', '--shard=1/2'], true)).toEqual([
    '--grep',
    'x.spec.ts',
    '-x',
    String.raw`a.spec\.[jt]s:3`,
    '--shard=1/2',
  ]);
});
