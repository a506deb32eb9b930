// Which operations of the interface a run never sent a request to, and why. A verdict holds for
// what was exercised: a run with writes off that says CONFORMANT has not judged mark-unread at all,
// and the reports must say so next to the verdict, not leave it to the count of skipped requirements.
import type { Catalog } from '../openapi/catalog.ts';
import type { OperationName } from '../openapi/contract.ts';
import type { OperationSummary, RequirementResult, UnexercisedOperation, Verdict } from '../core/results/report-model.ts';

export interface ExercisedInput {
  operations: readonly OperationName[];
  /** Requests sent, per operation (the report's `operations`). */
  sent: readonly OperationSummary[];
  allowWrites: boolean;
  requirements: readonly RequirementResult[];
}

/**
 * The operations no request went to, in the document's order. Why, first that applies: a write with
 * ALLOW_WRITES off; the skip reason of a requirement of that operation alone; a requirement of it
 * blocked; no test of it ran (a filtered or partial run).
 */
export function unexercisedOperations(catalog: Catalog, input: ExercisedInput): UnexercisedOperation[] {
  const sent = new Map(input.sent.map((summary) => [summary.operation, summary.requests]));
  return input.operations
    .filter((operation) => (sent.get(operation.id) ?? 0) === 0)
    .map((operation) => ({
      operation: operation.id,
      name: operation.name,
      reason: reasonFor(operation, catalog, input),
    }));
}

function reasonFor(operation: OperationName, catalog: Catalog, input: ExercisedInput): string {
  if (operation.method !== 'GET' && !input.allowWrites) return 'ALLOW_WRITES is not true';
  // Requirements of this operation alone say why its tests did not run; shared ones (AUTH-*) were judged on the others.
  const own = input.requirements.filter((result) => {
    const operations = catalog.byId.get(result.id)?.operations ?? [];
    return operations.length === 1 && operations[0] === operation.id;
  });
  const skipped = own.find((result) => result.status === 'skip' && result.reason);
  if (skipped) return `its tests were skipped: ${skipped.reason}`;
  const blocked = own.find((result) => result.status === 'blocked' && result.reason);
  if (blocked) return `its tests were not run: ${blocked.reason}`;
  if (own.length > 0 && own.every((result) => result.status === 'uncovered' || result.status === 'not-testable'))
    return 'no test of it ran in this run (a filtered or partial run)';
  return 'no test sent it a request';
}

/**
 * What the verdict's reason adds: "Mark Group Conversation As Unread not exercised: ALLOW_WRITES is
 * not true." An inconclusive run already says it judged little, so only a verdict on the target
 * (CONFORMANT, NON-CONFORMANT) carries it.
 */
export function unexercisedSentence(verdict: Verdict, unexercised: readonly UnexercisedOperation[]): string {
  if (verdict === 'INCONCLUSIVE' || unexercised.length === 0) return '';
  return unexercised.map((entry) => ` ${entry.name} not exercised: ${entry.reason}.`).join('');
}
