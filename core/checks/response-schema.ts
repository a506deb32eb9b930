// response_schema_conformance: every response body against the OpenAPI document. Get Call is
// unwrapped first (bare, in data, or a one-element data array: not shown which) so that a violation
// points at the field.
import type { Contract, SchemaViolation } from '../../openapi/contract.ts';
import type { Exchange } from '../transport/exchange.ts';
import { getCallEnvelope, isSuccess, valueAt } from './calls-in.ts';
import type { SchemaRequirementIndex } from './schema-requirements.ts';
import { shown, type Violation } from './violation.ts';
import { MAX_JSON_DEPTH } from '../transport/json-text.ts';

export interface SchemaContext {
  contract: Contract;
  schemaRequirements: SchemaRequirementIndex;
}

export function responseSchemaConformance(exchange: Exchange, context: SchemaContext): Violation[] {
  const { operation, response } = exchange;
  if (response.tooDeep) return [tooDeep(exchange, context)];
  if (!response.isJson) return [];
  const toViolation = (violation: SchemaViolation, prefix: string, callRelative: boolean): Violation => ({
    check: 'response_schema_conformance',
    requirement: context.schemaRequirements.requirementOf(operation, response.status, violation, callRelative),
    title: `${prefix}${violation.valuePath || ''} ${violation.message}`.trim() || 'the body does not match its schema',
    expected: `${violation.message} (${violation.schemaPath})`,
    received:
      violation.missingProperty !== undefined
        ? `no ${violation.missingProperty} at ${`${prefix}${violation.valuePath}` || '/'}`
        : `${shown(valueAt(response.body, `${prefix}${violation.valuePath}`))} at ${`${prefix}${violation.valuePath}` || '/'}`,
    exchange,
  });
  // An allOf can report one problem once per branch; a reader needs it once.
  const distinct = (violations: Violation[]) => [
    ...new Map(violations.map((violation) => [`${violation.requirement}|${violation.title}`, violation])).values(),
  ];

  if (operation === 'getCall' && isSuccess(exchange)) {
    const found = getCallEnvelope(response.body);
    if (!found) {
      return [
        toViolation(
          {
            valuePath: '',
            schemaPath: '#/components/schemas/CallDetails',
            message: 'must be the call: bare, wrapped in data, or the one item of a data array',
          },
          '',
          false,
        ),
      ];
    }
    return distinct(context.contract.validateSchema('Call', found.call).map((violation) => toViolation(violation, found.pointer, true)));
  }
  // Any success is held to the success body: a 201 with a good list is a status problem, which
  // the operation's own test reports, not a body missing `error`.
  const status = isSuccess(exchange) ? 200 : response.status;
  return distinct(
    context.contract.validateResponse(operation, status, response.body).map((violation) => toViolation(violation, '', false)),
  );
}

/** A body nested deeper than any answer of the contract: its schema fails at the root, and nothing walks it. */
function tooDeep(exchange: Exchange, context: SchemaContext): Violation {
  const { operation, response } = exchange;
  const status = isSuccess(exchange) ? 200 : response.status;
  const message = `must be an answer of the contract, which nests a few levels deep: this body nests more than ${MAX_JSON_DEPTH} levels of arrays and objects`;
  return {
    check: 'response_schema_conformance',
    requirement: context.schemaRequirements.requirementOf(operation, status, { valuePath: '', schemaPath: '#', message }, false),
    title: `the body nests more than ${MAX_JSON_DEPTH} levels deep`,
    expected: message,
    received: `${response.text.length} characters beginning ${shown(response.text.slice(0, 40), 60)}`,
    exchange,
  };
}
