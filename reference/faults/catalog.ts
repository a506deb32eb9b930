// The fault catalog: every named fault the reference can run with (`--fault NAME`). The kill
// matrix runs the conformance suite against each and checks it reports what the fault breaks.
import type { Fault } from './fault.ts';
import { FIELD_FAULTS } from './fields.ts';
import { INVARIANT_FAULTS } from './invariants.ts';
import { READING_FAULTS } from './readings.ts';
import { FILTER_FAULTS } from './filters.ts';
import { PAGINATION_FAULTS } from './pagination.ts';
import { GET_CALL_FAULTS } from './get-call.ts';
import { SETTLING_FAULTS } from './settling.ts';
import { ACCESS_FAULTS } from './access.ts';
import { SHOULD_FAULTS, STRICT_FAULTS } from './conventions.ts';

export type { Fault } from './fault.ts';

export const FAULTS: readonly Fault[] = Object.freeze([
  ...FIELD_FAULTS,
  ...INVARIANT_FAULTS,
  ...READING_FAULTS,
  ...FILTER_FAULTS,
  ...PAGINATION_FAULTS,
  ...GET_CALL_FAULTS,
  ...SETTLING_FAULTS,
  ...ACCESS_FAULTS,
  ...SHOULD_FAULTS,
  ...STRICT_FAULTS,
]);

export function findFault(name: string): Fault | undefined {
  return FAULTS.find((fault) => fault.name === name);
}

/**
 * The catalog as `--list-faults` prints it: one fault per line, its requirements, its description.
 * The readings a fault runs under are named when it declares them: `--readings` changes what it breaks.
 */
export function describeCatalog(): string {
  const width = Math.max(...FAULTS.map((fault) => fault.name.length));
  return FAULTS.map((fault) => {
    const readings = fault.readings ? `readings ${fault.readings.join(' and ')}` : '';
    const tags = [fault.profile === 'strict' ? 'strict' : '', fault.calls ? `${fault.calls} calls` : '', readings]
      .filter(Boolean)
      .join(', ');
    return `${fault.name.padEnd(width)}  ${fault.requirements.join(', ')}${tags ? ` (${tags})` : ''}\n${' '.repeat(width)}  ${fault.description}`;
  }).join('\n');
}
