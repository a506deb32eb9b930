// The suite's core (fixtures/, openapi/, reference/) stands on its own: it imports nothing from
// reporters/, and none of its files need each other. Type-only imports count: they are what tied
// fixtures/config.ts to the reporters through the results file's format, eleven files in one knot.
import { test, expect } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { coreProblems, cyclesAmong, importGraph, readSources, relativeImportsOf } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('the core imports nothing from reporters/ and has no import cycle', () => {
  const graph = importGraph(readSources(ROOT, ['fixtures', 'openapi', 'reference', 'reporters']));
  expect(graph.size).toBeGreaterThan(100);
  expect(coreProblems(graph)).toEqual([]);
});

test('imports are read as TypeScript reads them: type-only, re-exports and dynamic ones count, comments do not', () => {
  const source = [
    "import type { A } from './a.ts';",
    "export { B } from '../b.ts';",
    "const c = await import('./c.ts');",
    "import { readFileSync } from 'node:fs';",
    "// import { D } from './d.ts';",
    'const text = "import { E } from \'./e.ts\'";',
  ].join('\n');
  expect(relativeImportsOf(source)).toEqual(['./a.ts', '../b.ts', './c.ts']);
});

test('a core file importing the reporters is named, with what it imports', () => {
  const graph = importGraph(
    new Map([
      ['fixtures/config.ts', "import { readResultsFile } from '../reporters/results-file.ts';"],
      ['reporters/results-file.ts', ''],
      ['reporters/render-html.ts', "import { loadConfig } from '../fixtures/config.ts';"],
    ]),
  );
  expect(coreProblems(graph)).toEqual(['the core imports the reporters: fixtures/config.ts -> reporters/results-file.ts']);
});

test('a cycle among core files is named with every file of its knot and one loop through it', () => {
  const graph = importGraph(
    new Map([
      ['fixtures/config.ts', "import type { Report } from './results/model.ts';"],
      ['fixtures/results/model.ts', "import type { Record } from '../request-log.ts';"],
      ['fixtures/request-log.ts', "import type { Api } from './api.ts';"],
      ['fixtures/api.ts', "import type { SuiteConfig } from './config.ts';\nimport { x } from './leaf.ts';"],
      ['fixtures/leaf.ts', ''],
      ['openapi/self.ts', "import { me } from './self.ts';"],
    ]),
  );
  expect(coreProblems(graph)).toEqual([
    'import cycle among 4 core file(s) (fixtures/api.ts, fixtures/config.ts, fixtures/request-log.ts, fixtures/results/model.ts): fixtures/api.ts -> fixtures/config.ts -> fixtures/results/model.ts -> fixtures/request-log.ts -> fixtures/api.ts',
    'import cycle among 1 core file(s) (openapi/self.ts): openapi/self.ts -> openapi/self.ts',
  ]);
});

test("cycles through the reporters are not the core's: only core files are kept when judging the core", () => {
  const graph = importGraph(
    new Map([
      ['fixtures/a.ts', "import { b } from '../reporters/b.ts';"],
      ['reporters/b.ts', "import { a } from '../fixtures/a.ts';"],
    ]),
  );
  expect(cyclesAmong(graph).map((cycle) => cycle.loop)).toEqual([['fixtures/a.ts', 'reporters/b.ts', 'fixtures/a.ts']]);
  expect(cyclesAmong(graph, (file) => file.startsWith('fixtures/'))).toEqual([]);
});
