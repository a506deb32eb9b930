// The OpenAPI document and the requirement catalog are YAML, and every process of a run needs them
// (the runner and each worker): parsing both costs about 0.2 s of CPU per process, which a run with
// four workers pays five times. The parsed value is kept as JSON (about a thousandth of the time to
// read back) under node_modules/.cache, by the SHA-256 of the text: an edited file is a new key, so
// a stale entry is never read. Anything wrong with the cache (not writable, an entry cut short, a
// value JSON cannot hold) costs only the parse it would have saved.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parseYaml } from './yaml-parse.ts';

const YAML_CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/calls-conformance/', import.meta.url));

/** The YAML file at `path`, parsed, or read back from what an earlier process parsed of the same text. */
export function parseYamlFile(path: string, cacheDir = YAML_CACHE_DIR): unknown {
  const text = readFileSync(path, 'utf8');
  const entry = join(cacheDir, `${createHash('sha256').update(text).digest('hex')}.json`);
  try {
    return JSON.parse(readFileSync(entry, 'utf8')) as unknown;
  } catch {
    // No entry yet, or one that cannot be read: parse, and keep it for the next process.
  }
  const value = parseYaml(text);
  const json = JSON.stringify(value);
  // Only a value JSON holds exactly is kept (YAML can say more than JSON can).
  if (json !== undefined && isDeepStrictEqual(JSON.parse(json), value)) {
    try {
      mkdirSync(cacheDir, { recursive: true });
      // Written aside and renamed, so that a process reading at the same moment sees all of it or none.
      const aside = `${entry}.${process.pid}.tmp`;
      writeFileSync(aside, json);
      renameSync(aside, entry);
    } catch {
      // A read-only install parses every time; nothing else changes.
    }
  }
  return value;
}

/**
 * Runs `validate` (which throws on what it refuses) unless it already passed, in an earlier process,
 * on exactly these texts (a file and the schema it is checked against): a mark kept beside the parsed
 * values, by the SHA-256 of the texts, says so. The catalog's check against its JSON Schema compiles
 * the schema first, about a tenth of a second of every process's start. An edited text is a new key;
 * a refusal leaves no mark; a cache that cannot be written validates every time.
 */
export function validateOnce(texts: readonly string[], validate: () => void, cacheDir = YAML_CACHE_DIR): void {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(createHash('sha256').update(text).digest('hex'));
  const mark = join(cacheDir, `${hash.digest('hex')}.valid`);
  if (existsSync(mark)) return;
  validate();
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(mark, '');
  } catch {
    // Validated here, and again in the next process.
  }
}
