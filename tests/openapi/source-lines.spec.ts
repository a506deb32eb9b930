// The lines results.sarif points at, read from the YAML's parse tree: each requirement's `- id:`
// line in the catalog, each operation's method line and each schema a requirement names in the
// OpenAPI document; an id named elsewhere in the file (a comment, another entry's text) is never
// taken for the entry.
import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_PATH, loadCatalog } from '../../openapi/catalog.ts';
import { OPENAPI_PATH } from '../../openapi/contract.ts';
import { contractLines, requirementLines } from '../../openapi/source-lines.ts';
import { freshDir } from '../fresh-dir.ts';

const linesOf = (path: string) => readFileSync(path, 'utf8').split('\n');

test("every requirement of the catalog has its line, and that line is its entry's `- id:`", () => {
  const lines = requirementLines(CATALOG_PATH);
  const text = linesOf(CATALOG_PATH);
  const { requirements } = loadCatalog();
  expect(lines.size).toBe(requirements.length);
  for (const { id } of requirements) expect(text[lines.get(id)! - 1], id).toBe(`  - id: ${id}`);
});

test("each operation's line is its method under its path, and each schema a requirement names is found at its key", () => {
  const { operations, pointer } = contractLines(OPENAPI_PATH);
  const text = linesOf(OPENAPI_PATH);
  expect([...operations.keys()].sort()).toEqual(['getCall', 'listCalls', 'markGroupConversationAsUnread']);
  for (const [operationId, line] of operations) {
    expect(text[line - 1], operationId).toMatch(/^ {4}(get|post|put|patch|delete):$/);
    expect(text[line], operationId).toBe(`      operationId: ${operationId}`);
  }
  const named = loadCatalog().requirements.filter((requirement) => requirement.schema !== undefined);
  expect(named.length).toBeGreaterThan(20);
  for (const { id, schema } of named) {
    const last = schema!.split('/').at(-1)!;
    expect(text[pointer(schema!)! - 1], id).toMatch(new RegExp(`^ *${last}:`));
  }
  expect(pointer('#/components/schemas/NoSuchSchema')).toBeUndefined();
  expect(pointer('#/paths/~1calls/get/parameters/1')).toBe(text.findIndex((line) => line.includes('- name: type')) + 1);
});

test('an id named in a comment or in the text of an earlier entry is not taken for its entry', () => {
  const path = join(freshDir('source-lines'), 'requirements.yaml');
  writeFileSync(
    path,
    [
      '# SECOND is named in this comment',
      'requirements:',
      '  - id: FIRST',
      '    text: "Unlike SECOND, this one"',
      '    # - id: SECOND',
      '  - text: written before its id',
      '    id: SECOND',
      '',
    ].join('\n'),
  );
  expect(Object.fromEntries(requirementLines(path))).toEqual({ FIRST: 3, SECOND: 7 });
});
