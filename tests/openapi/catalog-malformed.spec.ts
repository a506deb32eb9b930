// The catalog loader refuses a malformed catalog instead of letting a report be built from it.
import { test, expect } from '@playwright/test';
import { freshDir } from '../fresh-dir.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_PATH, loadCatalog } from '../../openapi/catalog.ts';

const original = readFileSync(CATALOG_PATH, 'utf8');

function loadEdited(edit: (text: string) => string) {
  const path = join(freshDir('catalog'), 'requirements.yaml');
  writeFileSync(path, edit(original));
  return () => loadCatalog(path);
}

test('a requirement id declared twice', () => {
  expect(loadEdited((text) => text.replace('id: CALLS-LIST-FILTER-MODE', 'id: CALLS-LIST-FILTER-TYPE'))).toThrow(
    /CALLS-LIST-FILTER-TYPE is declared twice/,
  );
});

test('a level outside MUST, SHOULD, MAY, INFO', () => {
  expect(loadEdited((text) => text.replace(/level: MUST/, 'level: REQUIRED'))).toThrow(/does not match its schema/);
});

test('a bare section number used as an id', () => {
  expect(loadEdited((text) => text.replace('id: CALLS-READ-ONLY', 'id: "4.1"'))).toThrow(/does not match its schema/);
});

test('a requirement marked not testable without a reason', () => {
  expect(loadEdited((text) => text.replace(/\n {4}reason: Media flows outside[^\n]*/, ''))).toThrow(/does not match its schema/);
});

test('a not-shown item without the stance the suite takes', () => {
  expect(loadEdited((text) => text.replace(/\n {4}stance: The suite detects which semantics[^\n]*/, ''))).toThrow(
    /does not match its schema/,
  );
});
