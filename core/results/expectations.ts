// Known failures: CONFORMANCE_EXPECTATIONS names a YAML file listing requirements a team knows its
// target breaks, each with the reason and, optionally, the date past which the expectation no longer
// holds. A listed requirement that fails is an expected failure: reported as such, and it does not
// make the verdict NON-CONFORMANT. One that passes is an unexpected pass, reported so the file is
// kept honest. An entry past its date counts as not listed. A malformed file, or one naming a
// requirement the catalog does not have, stops the run before any test with one line.
import { existsSync, readFileSync } from 'node:fs';
import { parseYaml } from '../../openapi/yaml-parse.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isTestable, type Catalog } from '../../openapi/catalog.ts';
import { ConfigError } from '../run/config-error.ts';

export const EXPECTATIONS_VARIABLE = 'CONFORMANCE_EXPECTATIONS';

export interface Expectation {
  requirement: string;
  reason: string;
  /** YYYY-MM-DD, the last day the expectation holds. */
  until?: string;
}

export interface Expectations {
  file: string;
  entries: readonly Expectation[];
}

const FILE_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['requirement', 'reason'],
    additionalProperties: false,
    properties: {
      requirement: { type: 'string', minLength: 1 },
      reason: { type: 'string', minLength: 1 },
      until: { type: 'string', format: 'date' },
    },
  },
} as const;

let validate: ReturnType<Ajv2020['compile']> | undefined;

export function readExpectations(file: string, catalog: Catalog): Expectations {
  const fail = (detail: string): never => {
    throw new ConfigError(EXPECTATIONS_VARIABLE, `${detail} (${file})`);
  };
  if (!existsSync(file)) fail('names a file that does not exist');
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  // An empty file lists nothing.
  if (raw === null || raw === undefined) return { file, entries: [] };
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats.default(ajv);
    validate = ajv.compile(FILE_SCHEMA);
  }
  if (!validate(raw)) {
    const [first] = validate.errors ?? [];
    fail(`must be a list of { requirement, reason, until? } entries: ${first?.instancePath || '/'} ${first?.message ?? 'is malformed'}`);
  }
  const entries = raw as Expectation[];
  const seen = new Set<string>();
  entries.forEach(({ requirement }, index) => {
    const known = catalog.byId.get(requirement);
    if (!known) fail(`entry ${index + 1} names an unknown requirement ${requirement}`);
    if (!isTestable(known!)) fail(`entry ${index + 1} names ${requirement}, which the interface cannot observe, so it can never fail`);
    if (seen.has(requirement)) fail(`entry ${index + 1} lists ${requirement} a second time`);
    seen.add(requirement);
  });
  return { file, entries };
}

/** An entry past its `until` date (the run's own date, UTC) no longer holds. */
export const isExpired = (entry: Expectation, today: Date): boolean =>
  entry.until !== undefined && entry.until < today.toISOString().slice(0, 10);
