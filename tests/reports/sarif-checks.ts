// What every results.sarif must be, as the self-tests check it: valid against the OASIS SARIF 2.1.0
// schema, and every result pointing at a line that exists and holds what it points at. The schema
// is the copy in the schemastore package (a devDependency: nothing is fetched), a draft-07 schema,
// so ajv's default (draft-07) class reads it. Its `language` pattern is not a valid regular
// expression under the `u` flag ajv uses by default (a `]` with no `[`), hence unicodeRegExp off.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isAbsolute, join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { PROJECT_ROOT } from '../runner/run-suite.ts';

const SCHEMA_PATH = createRequire(import.meta.url).resolve('schemastore/schemas/json/sarif-2.1.0.json');

let validator: ValidateFunction | undefined;

/** The schema's complaints about `log`, one line each; empty when it is valid SARIF 2.1.0. */
export function sarifProblems(log: unknown): string[] {
  if (validator === undefined) {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $schema: string };
    if (schema.$schema !== 'http://json-schema.org/draft-07/schema#')
      throw new Error(`${SCHEMA_PATH} is no longer draft-07: ${schema.$schema}`);
    const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, unicodeRegExp: false });
    addFormats.default(ajv);
    validator = ajv.compile(schema);
  }
  return validator(log) ? [] : (validator.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

/** The parts of a SARIF log the self-tests read. */
export interface SarifLog {
  version: string;
  runs: Array<{
    tool: { driver: { name: string; version: string; rules: Array<{ id: string; properties: { section: string; level: string } }> } };
    automationDetails?: { id: string };
    invocations: Array<{ executionSuccessful: boolean; properties: { verdict: string } }>;
    results: SarifResult[];
  }>;
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
  partialFingerprints: Record<string, string>;
  suppressions?: Array<{ kind: string; justification?: string }>;
  properties: { status: string; reproduce?: string; rerun?: string };
}

export function readSarif(dir: string): SarifLog {
  return JSON.parse(readFileSync(join(dir, 'results.sarif'), 'utf8')) as SarifLog;
}

/**
 * The line each result points at, read from its file: a relative path from `root` (where the run
 * was started), or a file URL. Undefined for a line the file does not have.
 */
export function pointedLine(result: SarifResult, root = PROJECT_ROOT): string | undefined {
  const { artifactLocation, region } = result.locations[0]!.physicalLocation;
  const path = artifactLocation.uri.startsWith('file:') ? fileURLToPath(artifactLocation.uri) : join(root, artifactLocation.uri);
  if (!isAbsolute(path)) return undefined;
  return readFileSync(path, 'utf8').split('\n')[region.startLine - 1];
}
