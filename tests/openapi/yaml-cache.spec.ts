// The parsed YAML kept between processes: read back, it is exactly what parsing gives; an edited
// file is never answered from the old entry; a broken entry or an unwritable cache costs a parse,
// never a wrong value or an error. A validation passed on the same texts is remembered likewise.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { parse } from 'yaml';
import { parseYamlFile, validateOnce } from '../../openapi/yaml-cache.ts';
import { OPENAPI_PATH } from '../../openapi/contract.ts';
import { CATALOG_PATH } from '../../openapi/catalog.ts';

function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'yaml-cache-'));
  return { dir, cache: join(dir, 'cache'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

test('the contract and the catalog read back from the cache are exactly what parsing them gives', () => {
  const { cache, remove } = scratch();
  try {
    for (const path of [OPENAPI_PATH, CATALOG_PATH]) {
      const parsed = parse(readFileSync(path, 'utf8')) as unknown;
      expect(parseYamlFile(path, cache)).toEqual(parsed);
      expect(parseYamlFile(path, cache), `${path} from the cache`).toEqual(parsed);
    }
    expect(readdirSync(cache).filter((name) => name.endsWith('.json'))).toHaveLength(2);
  } finally {
    remove();
  }
});

test('an edited file is parsed again, not answered from the entry of its old text', () => {
  const { dir, cache, remove } = scratch();
  try {
    const file = join(dir, 'doc.yaml');
    writeFileSync(file, 'title: first\n');
    expect(parseYamlFile(file, cache)).toEqual({ title: 'first' });
    writeFileSync(file, 'title: second\n');
    expect(parseYamlFile(file, cache)).toEqual({ title: 'second' });
  } finally {
    remove();
  }
});

test('a broken entry, a value JSON cannot hold, or a cache that cannot be written costs only a parse', () => {
  const { dir, cache, remove } = scratch();
  try {
    const file = join(dir, 'doc.yaml');
    writeFileSync(file, 'count: 3\n');
    parseYamlFile(file, cache);
    const [entry] = readdirSync(cache);
    writeFileSync(join(cache, entry!), '{"count": 3');
    expect(parseYamlFile(file, cache)).toEqual({ count: 3 });

    // .inf is a number YAML has and JSON has not: it is parsed every time, never kept as null.
    writeFileSync(file, 'limit: .inf\n');
    expect(parseYamlFile(file, cache)).toEqual({ limit: Infinity });
    expect(parseYamlFile(file, cache)).toEqual({ limit: Infinity });

    // A cache folder that cannot be made (its parent is a file, which even root cannot write under).
    const notAFolder = join(dir, 'not-a-folder');
    writeFileSync(notAFolder, '');
    writeFileSync(file, 'ok: true\n');
    expect(parseYamlFile(file, join(notAFolder, 'cache'))).toEqual({ ok: true });
  } finally {
    remove();
  }
});

test('a validation passed on the same texts is not run again; an edited text, a refusal or an unwritable cache runs it again', () => {
  const { dir, cache, remove } = scratch();
  try {
    let runs = 0;
    const passes = () => void (runs += 1);
    validateOnce(['catalog', 'schema'], passes, cache);
    validateOnce(['catalog', 'schema'], passes, cache);
    expect(runs).toBe(1);
    validateOnce(['catalog, edited', 'schema'], passes, cache);
    validateOnce(['catalog', 'schema, edited'], passes, cache);
    // The same characters split otherwise between the texts are other texts.
    validateOnce(['catalogs', 'chema'], passes, cache);
    expect(runs).toBe(4);

    const refuses = () => {
      runs += 1;
      throw new Error('refused');
    };
    expect(() => validateOnce(['bad'], refuses, cache)).toThrow('refused');
    expect(() => validateOnce(['bad'], refuses, cache)).toThrow('refused');
    expect(runs).toBe(6);

    const notAFolder = join(dir, 'not-a-folder');
    writeFileSync(notAFolder, '');
    validateOnce(['catalog', 'schema'], passes, join(notAFolder, 'cache'));
    validateOnce(['catalog', 'schema'], passes, join(notAFolder, 'cache'));
    expect(runs).toBe(8);
  } finally {
    remove();
  }
});
