// The contract as code: the hand-written OpenAPI document, parsed once, and ajv validators compiled
// straight from its schemas. No schema is restated in TypeScript.
import { fileURLToPath } from 'node:url';
import { parseYamlFile } from './yaml-cache.ts';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';

export const OPENAPI_PATH = fileURLToPath(new URL('./calls-api.openapi.yaml', import.meta.url));
const DOCUMENT_ID = 'urn:calls-conformance:openapi';

export type OperationId = 'listCalls' | 'getCall' | 'markGroupConversationAsUnread';

export interface SchemaViolation {
  /** Where in the value the problem is, as a JSON pointer ('' is the whole body). */
  valuePath: string;
  /** Which schema rule was broken, as a pointer into the OpenAPI document. */
  schemaPath: string;
  message: string;
  /** For a missing required property: its name. */
  missingProperty?: string;
}

export interface Contract {
  document: OpenAPIV3_1.Document;
  /** Validates a value against `#/components/schemas/NAME`. */
  validateSchema(name: string, value: unknown): SchemaViolation[];
  /**
   * Validates a response body against the schema the operation declares for the status:
   * the exact code, then its range (`2XX`), then `default`.
   */
  validateResponse(operationId: OperationId, status: number, body: unknown): SchemaViolation[];
}

/** An operation of the interface as a reader names it: its id, the document's summary, and its HTTP method. */
export interface OperationName {
  id: OperationId;
  /** The OpenAPI summary: "Mark Group Conversation As Unread". */
  name: string;
  method: string;
}

/** Every operation of the document, in its order: what a run may exercise. */
export function operationNames(document: OpenAPIV3_1.Document = loadOpenApiDocument()): OperationName[] {
  return Object.values(document.paths ?? {}).flatMap((item) =>
    (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((method) => {
      const operation = item?.[method];
      return operation?.operationId
        ? [{ id: operation.operationId as OperationId, name: operation.summary ?? operation.operationId, method: method.toUpperCase() }]
        : [];
    }),
  );
}

export function loadOpenApiDocument(path = OPENAPI_PATH): OpenAPIV3_1.Document {
  return parseYamlFile(path) as OpenAPIV3_1.Document;
}

export function loadContract(document: OpenAPIV3_1.Document = loadOpenApiDocument()): Contract {
  // strictRequired is off because CallListItem narrows Call with `allOf` + `required`, the
  // standard way to add required fields to a shared schema. validateSchema is off: checking the
  // document against the JSON Schema meta-schema looked only at its top level (OpenAPI keys, which
  // the meta-schema does not descend into), yet compiled the meta-schema in every process, about
  // 60 ms of each worker's start. Each schema is still checked where it counts, when compiled: a
  // schema with a bad keyword value or (strict) an unknown keyword throws there (schemas.spec.ts).
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    validateFormats: true,
    verbose: true,
    validateSchema: false,
  });
  addFormats.default(ajv);
  // The OpenAPI document itself is registered as one schema resource so that every internal
  // `$ref: '#/components/...'` resolves exactly as a peer tool resolves it. Its top-level keys
  // are OpenAPI, not JSON Schema, so ajv is told they are known and carry no validation.
  ajv.addVocabulary([
    'openapi',
    'info',
    'servers',
    'paths',
    'components',
    'tags',
    'security',
    'jsonSchemaDialect',
    'webhooks',
    'externalDocs',
  ]);
  // Registered with every internal reference inlined (inlineRefs below): ajv compiles a schema
  // reached by a `$ref` that itself holds one (a Participant, a Call) into a function of its own, and
  // with allErrors gathers that function's errors by `vErrors.concat(...)`, which copies every error
  // found so far; on a call of 100,000 participants each missing a field, that is a copy of up to
  // 300,000 errors per participant. Inlined, each error is pushed once: time grows with the body.
  const pointers = new WeakMap<object, string>();
  ajv.addSchema({ ...(inlineRefs(document, pointers) as object), $id: DOCUMENT_ID, jsonSchemaDialect: undefined });
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string): ValidateFunction => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
      if (!validate) throw new Error(`The OpenAPI document has no schema at ${pointer}`);
      compiled.set(pointer, validate);
    }
    return validate;
  };
  const run = (pointer: string, value: unknown): SchemaViolation[] => {
    const validate = validatorAt(pointer);
    return validate(value) ? [] : (validate.errors ?? []).map((error) => toViolation(error, pointers));
  };

  const operations = indexOperations(document);
  const responseKeyFor = (operationId: OperationId, status: number): string | undefined => {
    const { responses } = operations.get(operationId)!;
    const candidates = [String(status), `${String(status)[0]}XX`, 'default'];
    return candidates.find((key) => responses[key] !== undefined);
  };

  return {
    document,
    validateSchema: (name, value) => run(`/components/schemas/${name}`, value),
    validateResponse(operationId, status, body) {
      const operation = operations.get(operationId);
      if (!operation) throw new Error(`Unknown operation ${operationId}`);
      const key = responseKeyFor(operationId, status);
      if (key === undefined) {
        return [{ valuePath: '', schemaPath: `${operation.pointer}/responses`, message: `status ${status} is not declared` }];
      }
      const declared = operation.responses[key]!;
      // A response given by `$ref` is validated at the component it points to.
      const responsePath = '$ref' in declared ? declared.$ref.replace(/^#/, '') : `${operation.pointer}/responses/${key}`;
      const response = at(document, responsePath) as OpenAPIV3_1.ResponseObject;
      if (!response.content?.['application/json']?.schema) return [];
      return run(`${responsePath}/content/application~1json/schema`, body);
    },
  };
}

interface IndexedOperation {
  pointer: string;
  responses: Record<string, OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject>;
}

function indexOperations(document: OpenAPIV3_1.Document): Map<string, IndexedOperation> {
  const operations = new Map<string, IndexedOperation>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item?.[method];
      if (!operation?.operationId) continue;
      operations.set(operation.operationId, {
        pointer: `/paths/${escapePointer(path)}/${method}`,
        responses: operation.responses ?? {},
      });
    }
  }
  return operations;
}

/** The node at a JSON pointer of the document ('/components/responses/Error'). */
function at(document: OpenAPIV3_1.Document, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[unescapePointer(key)], document);
}

/** Keywords beside a `$ref` that carry no validation: the reference is inlined with them dropped. */
const ANNOTATIONS = new Set(['$ref', 'description', 'title', 'summary', '$comment', 'examples', 'example', 'deprecated']);

/**
 * The document as ajv validates it: a copy in which every internal `$ref` whose siblings are only
 * annotations is replaced by the copy of the node it points to, one object wherever it is referenced
 * (the same validation: ajv inlines such a reference itself when its target holds no reference).
 * A reference that loops back into itself, or carries keywords that validate, stays a reference.
 *
 * ajv reports schema paths relative to the schema it compiled; a reader wants the place in the
 * OpenAPI document, so every copied node is mapped, in `pointers`, to the pointer of the node it
 * copies (ajv keeps the objects): an error inside an inlined Participant names
 * `#/components/schemas/Participant/...`, as it did through the reference.
 */
function inlineRefs(document: object, pointers: WeakMap<object, string>): unknown {
  const copies = new Map<string, unknown>();
  const inProgress = new Set<string>();
  const copyAt = (node: unknown, pointer: string): unknown => {
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/') && Object.keys(node).every((key) => ANNOTATIONS.has(key))) {
      const target = ref.slice(1);
      const resolved = at(document as OpenAPIV3_1.Document, target);
      if (resolved !== undefined && !inProgress.has(target)) return copyAt(resolved, target);
    }
    const done = copies.get(pointer);
    if (done !== undefined) return done;
    inProgress.add(pointer);
    const made: object = Array.isArray(node)
      ? node.map((child, index) => copyAt(child, `${pointer}/${index}`))
      : Object.fromEntries(Object.entries(node).map(([key, child]) => [key, copyAt(child, `${pointer}/${escapePointer(key)}`)]));
    inProgress.delete(pointer);
    pointers.set(made, `#${pointer}`);
    copies.set(pointer, made);
    return made;
  };
  return copyAt(document, '');
}

function toViolation(error: ErrorObject, pointers: WeakMap<object, string>): SchemaViolation {
  const parent = error.parentSchema && pointers.get(error.parentSchema);
  const schemaPath = parent ? `${parent}/${error.keyword}` : error.schemaPath;
  const message = error.keyword === 'required' ? `${error.message}` : `${error.message ?? error.keyword} ${JSON.stringify(error.params)}`;
  const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
  return { valuePath: error.instancePath, schemaPath, message, ...(missing !== undefined && { missingProperty: missing }) };
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
