// Small rooms: no function of the product spans 80 lines or more. The ones that still do are named
// here, each with why it is still long; a function split since fails its stale entry, so the list
// only shrinks, and a new long function fails until it is split.
import { test, expect } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { PART_FOLDERS, readSources } from './import-graph.ts';
import { longFunctions } from './function-length.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIMIT = 80;

/** Functions still long, by `file:name`, and why (none since cli/usage.ts's variables were split by topic). */
const STILL_LONG: Readonly<Record<string, string>> = {};

test(`no function of the product spans ${LIMIT} lines or more, but those named with why`, () => {
  const sources = [...readSources(ROOT, PART_FOLDERS)];
  const long = sources.flatMap(([file, text]) => longFunctions(file, text, LIMIT));
  // The scan reads the product: at half the limit it finds functions there (an empty list proves nothing otherwise).
  expect(sources.flatMap(([file, text]) => longFunctions(file, text, LIMIT / 2)).length).toBeGreaterThan(0);
  const unnamed = long.filter(({ id }) => STILL_LONG[id] === undefined).map(({ id, lines }) => `${id} (${lines} lines)`);
  expect(unnamed, 'split these: docs/architecture.md keeps the rooms small').toEqual([]);
  const stale = Object.keys(STILL_LONG).filter((id) => !long.some((found) => found.id === id));
  expect(stale, 'split since: take them off STILL_LONG').toEqual([]);
});

test('a function is measured from its first token to its last and named as a reader finds it', () => {
  const body = (count: number) => Array.from({ length: count - 2 }, (_, index) => `  step(${index});`).join('\n');
  const source = [
    `function declared() {\n${body(5)}\n}`,
    `const assigned = async () => {\n${body(4)}\n};`,
    `const object = { method() {\n${body(6)}\n} };`,
    `test('a title', async () => {\n${body(3)}\n});`,
    `function short() {}`,
  ].join('\n');
  expect(longFunctions('x.ts', source, 3)).toEqual([
    { id: 'x.ts:declared', lines: 5 },
    { id: 'x.ts:assigned', lines: 4 },
    { id: 'x.ts:method', lines: 6 },
    { id: 'x.ts:test("a title")', lines: 3 },
  ]);
});
