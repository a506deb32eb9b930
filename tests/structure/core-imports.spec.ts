// The layout holds its direction: each top-level part imports only the parts below it
// (import-graph.ts, docs/architecture.md), and the core has no import cycle. Type-only imports count:
// they are what once tied the configuration to the reporters through the results file's format,
// eleven files in one knot.
import { test, expect } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { cyclesAmong, importGraph, layoutProblems, PART_FOLDERS, readSources, relativeImportsOf } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('every part imports only the parts below it, and the core has no import cycle', () => {
  const graph = importGraph(readSources(ROOT, PART_FOLDERS));
  expect(graph.size).toBeGreaterThan(150);
  expect(layoutProblems(graph)).toEqual([]);
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

test('an import up the layers is named, with what it imports, whichever part it leaves', () => {
  const graph = importGraph(
    new Map([
      ['core/run/config.ts', "import type { X } from '../../reports/results-file.ts';"],
      ['core/checks/a.ts', "import { b } from '../../passive/judge.ts';\nimport { c } from '../../fixtures/index.ts';"],
      ['reports/render-html.ts', "import { loadConfig } from '../core/run/config.ts';\nimport { cli } from '../cli/usage.ts';"],
      ['fixtures/index.ts', "import { s } from '../suite/auth/x.ts';"],
      ['openapi/contract.ts', "import { v } from '../core/checks/a.ts';"],
      ['reference/server.ts', "import { v } from '../core/checks/a.ts';"],
      ['passive/judge.ts', "import { r } from '../reports/render-html.ts';\nimport { f } from '../fixtures/index.ts';"],
      ['suite/auth/x.ts', "import { t } from '../../fixtures/index.ts';\nimport { y } from '../helper.ts';"],
      ['tests/helper.ts', "import { anything } from '../cli/usage.ts';"],
    ]),
  );
  expect(layoutProblems(graph)).toEqual([
    'an import against the direction of the layers: core/run/config.ts -> reports/results-file.ts',
    'an import against the direction of the layers: core/checks/a.ts -> passive/judge.ts',
    'an import against the direction of the layers: core/checks/a.ts -> fixtures/index.ts',
    'an import against the direction of the layers: reports/render-html.ts -> cli/usage.ts',
    'an import against the direction of the layers: fixtures/index.ts -> suite/auth/x.ts',
    'an import against the direction of the layers: openapi/contract.ts -> core/checks/a.ts',
    'an import against the direction of the layers: reference/server.ts -> core/checks/a.ts',
    'an import against the direction of the layers: passive/judge.ts -> fixtures/index.ts',
  ]);
});

test('a cycle among core files is named with every file of its knot and one loop through it', () => {
  const graph = importGraph(
    new Map([
      ['core/run/config.ts', "import type { Report } from '../results/model.ts';"],
      ['core/results/model.ts', "import type { Record } from './request-log.ts';"],
      ['core/results/request-log.ts', "import type { Api } from '../transport/api.ts';"],
      ['core/transport/api.ts', "import type { SuiteConfig } from '../run/config.ts';\nimport { x } from './leaf.ts';"],
      ['core/transport/leaf.ts', ''],
      ['core/self.ts', "import { me } from './self.ts';"],
    ]),
  );
  expect(layoutProblems(graph)).toEqual([
    'import cycle among 4 core file(s) (core/results/model.ts, core/results/request-log.ts, core/run/config.ts, core/transport/api.ts): core/results/model.ts -> core/results/request-log.ts -> core/transport/api.ts -> core/run/config.ts -> core/results/model.ts',
    'import cycle among 1 core file(s) (core/self.ts): core/self.ts -> core/self.ts',
  ]);
});

test("cycles through other parts are not the core's: only core files are kept when judging the core", () => {
  const graph = importGraph(
    new Map([
      ['core/a.ts', "import { b } from '../reports/b.ts';"],
      ['reports/b.ts', "import { a } from '../core/a.ts';"],
    ]),
  );
  expect(cyclesAmong(graph).map((cycle) => cycle.loop)).toEqual([['core/a.ts', 'reports/b.ts', 'core/a.ts']]);
  expect(cyclesAmong(graph, (file) => file.startsWith('core/'))).toEqual([]);
});
