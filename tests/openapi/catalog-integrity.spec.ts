// The requirement catalog holds together: it matches its schema, ids are unique, sections exist,
// schema pointers resolve in the OpenAPI document, and every field the document gives the
// specification's resources is held by a requirement.
import { test, expect } from '@playwright/test';
import { loadCatalog, isTestable } from '../../openapi/catalog.ts';
import { loadOpenApiDocument } from '../../openapi/contract.ts';

const catalog = loadCatalog();
const document = loadOpenApiDocument();

function resolvePointer(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node === undefined ? undefined : (node as Record<string, unknown>)[key]), document);
}

test('the catalog loads, matches its schema and declares every id once', () => {
  expect(catalog.requirements.length).toBeGreaterThan(50);
  expect(new Set(catalog.requirements.map((r) => r.id)).size).toBe(catalog.requirements.length);
});

test('every requirement names a section the specification has', () => {
  const unknown = catalog.requirements.filter((r) => !(r.section in catalog.sections)).map((r) => `${r.id} → ${r.section}`);
  expect(unknown).toEqual([]);
});

test('every section of the specification holds at least one requirement', () => {
  const used = new Set(catalog.requirements.map((r) => r.section));
  expect(Object.keys(catalog.sections).filter((section) => !used.has(section))).toEqual([]);
});

test('every schema pointer resolves in the OpenAPI document', () => {
  const dangling = catalog.requirements
    .filter((r) => r.schema !== undefined && resolvePointer(r.schema) === undefined)
    .map((r) => `${r.id} → ${r.schema}`);
  expect(dangling).toEqual([]);
});

test('every property of Call, Participant and Recording is held by a field requirement', () => {
  const pointers = new Set(catalog.requirements.flatMap((r) => (r.schema ? [r.schema] : [])));
  const uncovered: string[] = [];
  for (const name of ['Call', 'Participant', 'Recording']) {
    const schemaPointer = `#/components/schemas/${name}`;
    const properties = (resolvePointer(`${schemaPointer}/properties`) ?? {}) as Record<string, { $ref?: string }>;
    for (const [property, schema] of Object.entries(properties)) {
      const own = `${schemaPointer}/properties/${property}`;
      if (!pointers.has(own) && !pointers.has(schema.$ref ?? '') && !pointers.has(schemaPointer)) uncovered.push(`${name}.${property}`);
    }
  }
  expect(uncovered).toEqual([]);
});

test('each error code of the specification is held by an error requirement', () => {
  const errorTexts = catalog.requirements.filter((r) => r.kind === 'error').map((r) => r.text);
  for (const code of ['AUTH_ERR_EMPTY_APIKEY', 'AUTH_ERR_APIKEY_NOT_FOUND', 'ERR_CALL_SESSION_NOT_FOUND']) {
    expect(
      errorTexts.some((text) => text.includes(code)),
      code,
    ).toBe(true);
  }
});

test('items this interface cannot observe are not testable, with the reason', () => {
  for (const id of ['MEDIA-SRTP-ENCRYPTION', 'MEDIA-AUDIO-OPUS', 'MEDIA-VIDEO-H264', 'MEDIA-VIDEO-RESOLUTION']) {
    const requirement = catalog.byId.get(id);
    expect(requirement && isTestable(requirement), id).toBe(false);
    expect(requirement?.reason, id).toBeTruthy();
  }
});

test('the derived invariants the specification implies are catalogued', () => {
  for (const id of [
    'CALL-DURATION-IS-AUDIO-PLUS-VIDEO',
    'CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES',
    'PARTICIPANT-NEVER-JOINED-SHAPE',
    'CALL-STARTED-NOT-BEFORE-INITIATED',
    'CALL-PARTICIPANTS-AT-MOST-50',
    'CALLS-LIST-AND-NARROWING',
  ]) {
    expect(catalog.byId.has(id), id).toBe(true);
  }
});

test('the operations a requirement names are operations of the OpenAPI document', () => {
  const operationIds = new Set(
    Object.values(document.paths ?? {}).flatMap((item) =>
      Object.values(item ?? {}).flatMap((op) => (op && typeof op === 'object' && 'operationId' in op ? [op.operationId] : [])),
    ),
  );
  const unknown = catalog.requirements.flatMap((r) =>
    (r.operations ?? []).filter((op) => !operationIds.has(op)).map((op) => `${r.id} → ${op}`),
  );
  expect(unknown).toEqual([]);
});
