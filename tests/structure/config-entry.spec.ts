// Configuration enters once (STYLE.md): each process reads it at its entry and passes it down, so
// that no part deep inside reads the environment again and finds something else there. The readers
// are named here, each with why it reads; a new one fails until it is named, or takes its
// configuration as a parameter instead. The project's own tests (tests/) read what they like.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { PART_FOLDERS, readSources } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The functions that read the configuration, each with the files that may name it, and why. */
const READERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  loadConfig: {
    'core/run/config.ts': "defines it, and the passive runs' reading over it",
    'core/run/config-of-this-process.ts': "the one read of a Playwright worker, or of a process the runner's config did not settle",
    'playwright.config.ts': "the runner's one read, before it decides the seed and the runs and settles the result for its process",
    'fixtures/index.ts':
      "a project with variables of its own (the kill matrix's, each judging its own target) has a configuration of its own",
    'cli/conformance.ts': "the command's entry: whether it is a dry run, and its listing",
    'cli/certify.ts': "the command's entry: what certification requires of the configuration before it runs the suite",
    'cli/usage.ts': "the help's defaults, computed from fixed environments: it reads none",
  },
  loadPassiveConfig: {
    'core/run/config.ts': 'defines it',
    'passive/har.ts': "the har command's entry, on the thread that judges (har-command.ts)",
    'passive/merge-passive.ts': "the passive merge's entry",
    'passive/proxy/proxy-command.ts': "the proxy command's entry, which hands it to both of its threads",
    'cli/history.ts': "the history command's entry, for HISTORY_FILE when no file is named (it sends nothing: no key needed)",
  },
  loadDiffConfig: {
    'core/run/config.ts': 'defines it',
    'cli/diff.ts': "the diff command's entry: both sides and the diff's settings",
  },
  configOfThisProcess: {
    'core/run/config-of-this-process.ts': 'defines it',
    'playwright.config.ts': 'a worker loading the config',
    'fixtures/index.ts': "the fixtures' configuration, and the learning fixture's timeout, which is fixed as the file loads",
    'core/run/preflight.ts': "the global setup, which Playwright loads apart from the config: the runner's settled configuration",
    'reports/reporter-settings.ts': "a reporter given no settings (a merge of blob reports loads no config of the suite's)",
    'reports/conformance-reporter.ts': "a run that carried no metadata, described from this process's configuration",
  },
};

/** `file: name` for every mention, as code, of each reader's name (its calls, imports and re-exports). */
function readersNamed(files: ReadonlyMap<string, string>, names: readonly string[]): string[] {
  const found = new Set<string>();
  for (const [file, text] of files) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if (ts.isIdentifier(node) && names.includes(node.text)) found.add(`${file}: ${node.text}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found].sort();
}

test('the configuration is read only at the entries named, each with why', () => {
  // The parts, and the Playwright config at the root, which the runner and every worker load first.
  const files = readSources(ROOT, PART_FOLDERS);
  files.set('playwright.config.ts', readFileSync(join(ROOT, 'playwright.config.ts'), 'utf8'));
  const found = readersNamed(files, Object.keys(READERS));
  const allowed = Object.entries(READERS).flatMap(([name, files]) => Object.keys(files).map((file) => `${file}: ${name}`));
  expect(
    found.filter((mention) => !allowed.includes(mention)),
    'take the configuration as a parameter from the entry that read it',
  ).toEqual([]);
  expect(
    allowed.filter((mention) => !found.includes(mention)),
    'no longer a reader: take it off READERS',
  ).toEqual([]);
});

test('a reader is found by its name as code, whichever way it is imported or called, and not in comments or strings', () => {
  const files = new Map([
    ['reports/a.ts', "import { loadConfig } from '../core/run/config.ts';\nconst c = loadConfig(environment());"],
    ['core/b.ts', "import * as config from './run/config.ts';\nexport const read = () => config.loadPassiveConfig({});"],
    ['suite/c.ts', "// loadConfig(environment()) is never called here\nconst text = 'loadConfig';"],
  ]);
  expect(readersNamed(files, ['loadConfig', 'loadPassiveConfig'])).toEqual(['core/b.ts: loadPassiveConfig', 'reports/a.ts: loadConfig']);
});
