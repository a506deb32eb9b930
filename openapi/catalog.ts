// The requirement catalog (requirements.yaml), validated against its JSON Schema on load so that a
// malformed entry stops everything that uses it (once per text of the two: yaml-cache.ts's validateOnce).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseYamlFile, validateOnce } from './yaml-cache.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { OperationId } from './contract.ts';

export const CATALOG_PATH = fileURLToPath(new URL('./requirements.yaml', import.meta.url));
const CATALOG_SCHEMA_PATH = fileURLToPath(new URL('./requirements.schema.json', import.meta.url));

export type Level = 'MUST' | 'SHOULD' | 'MAY' | 'INFO';
export type RequirementKind = 'rule' | 'field' | 'derived' | 'error' | 'limit' | 'not-shown';

export interface Requirement {
  id: string;
  section: string;
  level: Level;
  kind: RequirementKind;
  text: string;
  operations?: OperationId[];
  /** For field constraints: the JSON pointer into the OpenAPI document that encodes them. */
  schema?: string;
  /** False when this interface cannot observe the item; `reason` then says why. */
  testable?: boolean;
  reason?: string;
  /** For "not shown" items: what the suite assumes and reports. */
  stance?: string;
  /** The deployed API's convention, which the strict profile holds targets to. */
  strict?: { level: Exclude<Level, 'MAY' | 'INFO'>; text: string };
  /** The subjects whose reading the target follows decides how this requirement is judged. */
  readings?: string[];
}

/** Something the suite learns of a target before judging it: the candidates the words allow, and how it decides. */
interface ReadingDeclaration {
  subject: string;
  question: string;
  judged: string;
  candidates: Array<{ id: string; text: string }>;
}

export interface Catalog {
  title: string;
  sections: Readonly<Record<string, string>>;
  requirements: readonly Requirement[];
  byId: ReadonlyMap<string, Requirement>;
  readings: readonly ReadingDeclaration[];
}

const loaded = new Map<string, Catalog>();

/** The catalog at `path`, read once per process (test files and fixtures share it), and validated once per text (validateOnce). */
export function loadCatalog(path = CATALOG_PATH): Catalog {
  let catalog = loaded.get(path);
  if (!catalog) {
    catalog = readCatalog(path);
    loaded.set(path, catalog);
  }
  return catalog;
}

function readCatalog(path: string): Catalog {
  const raw = parseYamlFile(path);
  const schema = readFileSync(CATALOG_SCHEMA_PATH, 'utf8');
  validateOnce([readFileSync(path, 'utf8'), schema], () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    const validate = ajv.compile(JSON.parse(schema));
    if (!validate(raw)) {
      const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
      throw new Error(`${path} does not match its schema: ${problems.join('; ')}`);
    }
  });
  const {
    specification,
    requirements,
    readings = [],
  } = raw as {
    specification: { title: string; sections: Record<string, string> };
    requirements: Requirement[];
    readings?: ReadingDeclaration[];
  };
  const byId = new Map<string, Requirement>();
  for (const requirement of requirements) {
    if (byId.has(requirement.id)) throw new Error(`${path}: requirement id ${requirement.id} is declared twice`);
    byId.set(requirement.id, Object.freeze(requirement));
  }
  const subjects = new Set(readings.map((reading) => reading.subject));
  for (const requirement of requirements) {
    const unknown = (requirement.readings ?? []).filter((subject) => !subjects.has(subject));
    if (unknown.length > 0) throw new Error(`${path}: requirement ${requirement.id} names undeclared readings ${unknown.join(', ')}`);
  }
  return Object.freeze({ title: specification.title, sections: specification.sections, requirements, byId, readings });
}

export const isTestable = (requirement: Requirement): boolean => requirement.testable !== false;

/** The level a requirement is judged at: its own, or its convention's under the strict profile. */
export function effectiveLevel(requirement: Requirement, profile: 'spec' | 'strict'): Level {
  return profile === 'strict' && requirement.strict ? requirement.strict.level : requirement.level;
}
