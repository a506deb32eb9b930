// The self-tests mirror the sources (mirror.ts): a self-test named after a source file sits under the
// tests/ folder of that file's part, tests/X/ for core/X/…, tests/P/ for any other part P/….
import { test, expect } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { PART_FOLDERS, readSources } from './import-graph.ts';
import { mirrorFolder, misplacedTests, specFiles } from './mirror.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('every self-test named after a source file sits under the tests/ folder of that source’s part', () => {
  const sources = [...readSources(ROOT, PART_FOLDERS).keys()].filter((file) => !file.endsWith('.spec.ts'));
  const specs = specFiles(ROOT, 'tests');
  expect(sources.length).toBeGreaterThan(150);
  expect(specs.length).toBeGreaterThan(150);
  expect(misplacedTests(specs, sources), 'move each with git mv, or name it after the behaviour it tests').toEqual([]);
});

test('a source’s tests folder is tests/X for core/X/…, and tests/P for any other part, subfolders included', () => {
  expect(mirrorFolder('core/run/verdict.ts')).toBe('tests/run');
  expect(mirrorFolder('core/checks/invariants/timer.ts')).toBe('tests/checks');
  expect(mirrorFolder('passive/proxy/proxy-har.ts')).toBe('tests/passive');
  expect(mirrorFolder('reference/data/generate.ts')).toBe('tests/reference');
  expect(mirrorFolder('fixtures/index.ts')).toBe('tests/fixtures');
});

test('a spec named after a source of another part is named with where it belongs; one named after a behaviour is not judged', () => {
  const sources = [
    'core/run/verdict.ts',
    'core/checks/errors.ts',
    'core/transport/errors.ts',
    'reports/bundle/refusals.ts',
    'cli/commands.ts',
  ];
  const specs = [
    'tests/checks/verdict.spec.ts',
    'tests/run/verdict.spec.ts',
    'tests/checks/errors.spec.ts',
    'tests/transport/errors.spec.ts',
    'tests/fixtures/errors.spec.ts',
    'tests/reports/refusals.spec.ts',
    'tests/docs/commands.spec.ts',
    'tests/suite/bounded-run.spec.ts',
  ];
  expect(misplacedTests(specs, sources)).toEqual([
    'tests/checks/verdict.spec.ts is named after core/run/verdict.ts: it belongs under tests/run/',
    'tests/fixtures/errors.spec.ts is named after core/checks/errors.ts and core/transport/errors.ts: it belongs under tests/checks/ or tests/transport/',
    'tests/docs/commands.spec.ts is named after cli/commands.ts: it belongs under tests/cli/',
  ]);
});
