// `npm run test:quick` (tests/quick.ts) stays quick and stays a part of `npm test`: every path it
// names exists and holds tests of the self project, and none of those tests runs the suite as a child
// process (a Playwright run of its own, seconds each), itself or through a helper of the self-tests
// it calls. Commands and reference servers, a second or less each, may start.
import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { QUICK_PATHS } from '../quick.ts';
import { PROJECT_ROOT } from './run-suite.ts';

const SELF = join(PROJECT_ROOT, 'tests');
/** A call (not the definition) of a function that runs the whole suite, or a benchmark, as a child process. */
const RUNS_THE_SUITE =
  /(?<!function )\b(runSuite|runConformance|runAgainst|runRows|runBench|conformanceRun|suiteRun)\(|\brunScript\(\s*(CLI\.(conformance|certify|dryRun)|[^,)]*(conformance|certify|bench)\.ts)/;

function specFiles(path: string): string[] {
  const full = join(PROJECT_ROOT, path);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => join(full, name));
}

/** The names a file imports from files of tests/, with the file each comes from. */
function selfImports(file: string): Array<{ name: string; from: string }> {
  const found: Array<{ name: string; from: string }> = [];
  for (const [, names, target] of readFileSync(file, 'utf8').matchAll(/import \{([^}]*)\} from '(\.{1,2}\/[^']+)'/g)) {
    const from = resolve(dirname(file), target!);
    if (!from.startsWith(SELF) || !existsSync(from)) continue;
    for (const name of names!.split(',').map((part) =>
      part
        .replace(/^\s*type\s+/, '')
        .split(' as ')[0]!
        .trim(),
    ))
      if (name) found.push({ name, from });
  }
  return found;
}

/** Whether the file's own code runs the suite, or calls a function of tests/ that does (followed through). */
function runsTheSuite(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (RUNS_THE_SUITE.test(text)) return true;
  return selfImports(file).some(({ name, from }) => new RegExp(`\\b${name}\\(`).test(text) && definesSuiteRunner(from, name, seen));
}

/** Whether `name`, as `file` defines it, runs the suite: its definition's body, up to the next top-level definition. */
function definesSuiteRunner(file: string, name: string, seen: Set<string>): boolean {
  const text = readFileSync(file, 'utf8');
  const start = text.search(new RegExp(`(function|const) ${name}\\b`));
  if (start < 0) return false;
  const rest = text.slice(start);
  const next = rest.slice(1).search(/\n(export )?(async )?(function|const|class) /);
  const body = next < 0 ? rest : rest.slice(0, next + 1);
  if (RUNS_THE_SUITE.test(body)) return true;
  return selfImports(file).some(({ name: used, from }) => new RegExp(`\\b${used}\\(`).test(body) && definesSuiteRunner(from, used, seen));
}

test('test:quick names paths of the self project that hold tests', () => {
  for (const path of QUICK_PATHS) {
    expect(existsSync(join(PROJECT_ROOT, path)), path).toBe(true);
    expect(path.startsWith('tests/') && !path.startsWith('tests/faults'), path).toBe(true);
    expect(specFiles(path).length, path).toBeGreaterThan(0);
  }
  const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts['test:quick']).toContain('tests/quick.ts');
});

test('no test of test:quick runs the suite as a child process, itself or through a helper it calls', () => {
  const running = QUICK_PATHS.flatMap(specFiles)
    .filter((spec) => runsTheSuite(spec))
    .map((spec) => relative(PROJECT_ROOT, spec));
  expect(running).toEqual([]);
});

test('the check finds the suite run by a helper a test calls, and by the test itself', () => {
  expect(runsTheSuite(join(SELF, 'reports', 'embedded-run.spec.ts'))).toBe(true);
  expect(runsTheSuite(join(SELF, 'suite', 'bounded-run.spec.ts'))).toBe(true);
  expect(runsTheSuite(join(SELF, 'checks', 'settling.spec.ts'))).toBe(false);
});
