// response_schema_conformance: every response body against the OpenAPI document. Get Call is
// unwrapped first (bare, in data, or a one-element data array: not shown which) so that a violation
// points at the field.
import type { Contract, SchemaViolation } from '../../openapi/contract.ts';
import type { Exchange } from '../transport/exchange.ts';
import { getCallEnvelope, isSuccess, valueAt } from './calls-in.ts';
import type { SchemaRequirementIndex } from './schema-requirements.ts';
import { DESCRIBED_PER_REQUIREMENT, shown, type Violation } from './violation.ts';
import { MAX_JSON_DEPTH } from '../transport/json-text.ts';

export interface SchemaContext {
  contract: Contract;
  schemaRequirements: SchemaRequirementIndex;
}

/** What the check found in an answer, before it is tied to the exchange that carried the answer. */
type Finding = Omit<Violation, 'exchange'>;

export function responseSchemaConformance(exchange: Exchange, context: SchemaContext): Violation[] {
  if (exchange.response.tooDeep) return [tooDeep(exchange, context)];
  if (!exchange.response.isJson) return [];
  return judge(exchange, context).map((finding) => ({ ...finding, exchange }));
}

function judge(exchange: Exchange, context: SchemaContext): Finding[] {
  const { operation, response } = exchange;
  if (operation === 'getCall' && isSuccess(exchange)) {
    const found = getCallEnvelope(response.body);
    if (!found) {
      return described(
        [
          {
            valuePath: '',
            schemaPath: '#/components/schemas/CallDetails',
            message: 'must be the call: bare, wrapped in data, or the one item of a data array',
          },
        ],
        exchange,
        context,
        '',
        false,
      );
    }
    return described(context.contract.validateSchema('Call', found.call), exchange, context, found.pointer, true);
  }
  // Any success is held to the success body: a 201 with a good list is a status problem, which
  // the operation's own test reports, not a body missing `error`.
  const status = isSuccess(exchange) ? 200 : response.status;
  return described(context.contract.validateResponse(operation, status, response.body), exchange, context, '', false);
}

/**
 * The schema's violations as findings: each placed under its requirement, once (an allOf can report
 * one problem once per branch; a reader needs it once, in the words of the last report of it), at
 * most DESCRIBED_PER_REQUIREMENT of a requirement described in full and the rest counted on the last
 * one described (`alike`, violation.ts). What is only counted costs its title and nothing more: a
 * body of 100,000 entries each missing a field is not described 100,000 times.
 */
function described(
  violations: readonly SchemaViolation[],
  exchange: Exchange,
  context: SchemaContext,
  prefix: string,
  callRelative: boolean,
): Finding[] {
  const { operation, response } = exchange;
  const describe = (violation: SchemaViolation, requirement: string, title: string): Finding => {
    const at = `${prefix}${violation.valuePath}`;
    return {
      check: 'response_schema_conformance',
      requirement,
      title,
      expected: `${violation.message} (${violation.schemaPath})`,
      received:
        violation.missingProperty !== undefined
          ? `no property ${violation.missingProperty} at ${at || '/'}`
          : `${shown(valueAt(response.body, at))} at ${at || '/'}`,
    };
  };
  const findings: Finding[] = [];
  // A title names the place and the problem, and with them the requirement (requirementOf reads the
  // place and the missing property, which the message names): one title, one finding.
  const titles = new Set<string>();
  /** The described findings, by title: where each is. */
  const describedAt = new Map<string, number>();
  /** Per requirement: its findings, and where its last described one is. */
  const byRequirement = new Map<string, { found: number; last: number }>();
  for (const violation of violations) {
    const title = `${prefix}${violation.valuePath || ''} ${violation.message}`.trim() || 'the body does not match its schema';
    if (titles.has(title)) {
      const at = describedAt.get(title);
      if (at !== undefined) findings[at] = describe(violation, findings[at]!.requirement, title);
      continue;
    }
    titles.add(title);
    const requirement = context.schemaRequirements.requirementOf(operation, response.status, violation, callRelative);
    const tally = byRequirement.get(requirement) ?? { found: 0, last: -1 };
    byRequirement.set(requirement, tally);
    tally.found += 1;
    if (tally.found > DESCRIBED_PER_REQUIREMENT) continue;
    describedAt.set(title, findings.length);
    tally.last = findings.length;
    findings.push(describe(violation, requirement, title));
  }
  for (const { found, last } of byRequirement.values())
    if (found > DESCRIBED_PER_REQUIREMENT) findings[last] = { ...findings[last]!, alike: found - DESCRIBED_PER_REQUIREMENT };
  return findings;
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
