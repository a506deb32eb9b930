// A requirement id travels as data: declared with requirement('ID') (fixtures/requirements.ts) as a
// `requirement` annotation, and carried by a note's annotation type (core/results/annotations.ts).
// No product code takes it back out of a test's title, whose first word only looks like the id, or
// cuts an annotation's description apart, whose text a target chose (issue 55). The scan reads the
// code, not the comments, which may name what it forbids.
import { test, expect } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { PART_FOLDERS, readSources } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What reads a title or an annotation's description apart, each with what it is called in a finding. */
const READS_APART: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  {
    pattern: /\btitle\)?\s*\.\s*(split|match|matchAll|slice|substring|substr|indexOf|search|replace|replaceAll|startsWith|at)\s*\(/,
    what: "reads a test's title apart",
  },
  { pattern: /\.(exec|test)\(\s*[\w.]*\btitle\b/, what: "reads a test's title apart" },
  { pattern: /\bdescription\b[^;\n]*\.\s*(split|indexOf|slice|match)\s*\(/, what: "cuts an annotation's description apart" },
];

/** Each line of code (comments left out) that reads a title or a description apart, as `file:line: what`. */
function titleParsing(sources: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of sources) {
    source.split('\n').forEach((line, index) => {
      if (/^\s*(\/\/|\/?\*)/.test(line)) return;
      const rule = READS_APART.find(({ pattern }) => pattern.test(line));
      if (rule) found.push(`${file}:${index + 1}: ${rule.what}: ${line.trim()}`);
    });
  }
  return found;
}

test('no product code reads a requirement id out of a test title or cuts an annotation apart', () => {
  const sources = readSources(ROOT, PART_FOLDERS);
  expect(sources.size).toBeGreaterThan(150);
  expect(titleParsing(sources)).toEqual([]);
});

test('the scan finds each way of reading a title or a description apart, and not comments or other text', () => {
  const sources = new Map([
    [
      'core/a.ts',
      [
        "const id = context.title.split(' ')[0];",
        "const first = testInfo.title.slice(0, testInfo.title.indexOf(' '));",
        'const [, id] = /^(\\S+) /.exec(test.title) ?? [];',
        "const kind = `${type}:${description.split(' ')[0]}`;",
        "const space = (annotation.description ?? '').indexOf(' ');",
        "// context.title.split(' ') is what this file no longer does",
        "const words = text.split(' ');",
        'const title = `${violation.requirement} ${violation.title}`;',
      ].join('\n'),
    ],
  ]);
  expect(titleParsing(sources).map((finding) => finding.split(': ')[0])).toEqual([
    'core/a.ts:1',
    'core/a.ts:2',
    'core/a.ts:3',
    'core/a.ts:4',
    'core/a.ts:5',
  ]);
});
