// What the passive judge counts per requirement (passive/judge.ts): how many exchanges or calls
// could show it, how many violations it found, and the first of them in full.
import type { Violation } from '../core/checks/violation.ts';
import { slim } from './sightings.ts';

/** A violation found in traffic: the check's, with where the exchange came from. */
export interface PassiveViolation extends Violation {
  /** `session.har, entry 12`: the exchange that broke it. */
  source: string;
  /** Other exchanges it rests on (the list a Get Call disagrees with). */
  related?: string[];
}

export interface RequirementTally {
  /** Exchanges (or calls) that could show it. */
  judged: number;
  violations: number;
  /** The first violations, in full (their exchanges redacted, response bodies cut). */
  examples: PassiveViolation[];
}

/** The tallies of one judge, in the order their requirements were first met (the reports list them so). */
export class RequirementTallies {
  private readonly tallies = new Map<string, RequirementTally>();
  constructor(private readonly examplesPerRequirement: number) {}

  tally(requirement: string): RequirementTally {
    let entry = this.tallies.get(requirement);
    if (!entry) this.tallies.set(requirement, (entry = { judged: 0, violations: 0, examples: [] }));
    return entry;
  }

  judged(...requirements: string[]): void {
    for (const requirement of requirements) this.tally(requirement).judged += 1;
  }

  report(violations: readonly Violation[], source: string, related?: string[]): void {
    for (const violation of violations) {
      const entry = this.tally(violation.requirement);
      // A violation may stand for more of its kind in the same answer, counted but not described (violation.ts).
      entry.violations += 1 + (violation.alike ?? 0);
      if (entry.judged === 0) entry.judged = 1;
      if (entry.examples.length < this.examplesPerRequirement) {
        entry.examples.push({
          ...violation,
          ...(violation.exchange && { exchange: slim(violation.exchange) }),
          source,
          ...(related && { related }),
        });
      }
    }
  }

  /** Every tally so far, copied (their examples too), in the order their requirements were first met. */
  copies(): Array<[string, RequirementTally]> {
    return [...this.tallies].map(([id, tally]) => [id, { ...tally, examples: [...tally.examples] }]);
  }
}
