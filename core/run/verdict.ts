// A test's verdict, requirement by requirement. Violations are sorted by the level of the
// requirement they break under the active profile: MUST fails, SHOULD becomes a warning and INFO an
// observation; warnings and observations travel as annotations for the reporters.
// A test fails only for the requirements it holds. A MUST violation of another requirement met on
// the way (a response seen while testing filters breaks a field's schema) is credited to that
// requirement, as a `violation` annotation and a described attachment, and the test goes on to
// judge its own: one deviation never hides the verdict on the others.
// A property's rehearsal (rehearsal.ts) runs its examples ahead of fast-check: there the verdict
// decides as it will in the run (a MUST violation of the test's own still ends the example) but
// keeps what it finds apart, and the test sees none of it.
import type { TestInfo } from '@playwright/test';
import { effectiveLevel, type Catalog } from '../../openapi/catalog.ts';
import type { Profile } from './profile.ts';
import { reproduceLines, shownUrl, type Exchange } from '../transport/exchange.ts';
import { violationCount, type Violation } from '../checks/violation.ts';
import { inRehearsal } from '../property/rehearsal.ts';
import { visible, visibleLine } from '../results/visible.ts';
import { heldRequirements, noteType, type NoteKind } from '../results/annotations.ts';

export type Outcome = 'fail' | 'warn' | 'observe';

/** Thrown when a MUST requirement is broken; property runs catch it to shrink the input. */
export class ConformanceFailure extends Error {
  constructor(readonly violations: readonly Violation[]) {
    super(describeViolations(violations));
    this.name = 'ConformanceFailure';
    // The message says all a reader needs (Expected/Received, the request, curl); a stack into the
    // suite's own code would only be noise under it.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * How many annotations of one kind a test adds for one requirement; more only add noise to a report.
 * Counted per requirement, so that many of one can never crowd out another's.
 */
const ANNOTATION_LIMIT = 20;
/** How many violations of one credited requirement a test keeps to describe it. */
const CREDITED_KEPT = 5;

/** The attachment that describes the violations a test credited to requirements it does not hold. */
export const CREDITED_ATTACHMENT = 'conformance-credited';

/** One requirement another test found broken, described as a failure message (Expected/Received, curl). */
export interface CreditedViolation {
  requirement: string;
  message: string;
}

export class Verdict {
  private readonly pending: Violation[] = [];
  /** Found by the per-exchange checks: judged once, when the test ends, and never shrunk on. */
  private readonly background = new Map<string, Violation>();
  /** MUST violations of requirements this test does not hold, by requirement. */
  private readonly credited = new Map<string, Violation[]>();
  /** How many violations of each credited requirement were met, beyond those kept to describe it. */
  private readonly creditedCount = new Map<string, number>();
  private readonly annotated = new Set<string>();
  /** Notes added so far, by their annotation type: their kind and the requirement they name. */
  private readonly annotationsByKind = new Map<string, number>();
  /** The requirements the test holds, as it declared them. */
  private readonly held: readonly string[];
  /** The requirements the test holds; undefined for a test that names none (it answers for all it meets). */
  private readonly own: ReadonlySet<string> | undefined;
  /** The last failure thrown: for a property, the one of its smallest counterexample. */
  private lastFailure: ConformanceFailure | undefined;

  constructor(
    private readonly testInfo: TestInfo,
    private readonly catalog: Catalog,
    private readonly profile: Profile,
  ) {
    this.held = heldRequirements(testInfo.annotations);
    this.own = this.held.length > 0 ? new Set(this.held) : undefined;
  }

  outcomeOf(requirementId: string): Outcome {
    const requirement = this.catalog.byId.get(requirementId);
    if (!requirement) throw new Error(`A check reported unknown requirement ${requirementId}`);
    const level = effectiveLevel(requirement, this.profile);
    return level === 'MUST' ? 'fail' : level === 'SHOULD' ? 'warn' : 'observe';
  }

  /** Keeps violations until the next `enforce()`. */
  record(violations: readonly Violation[]): void {
    (inRehearsal()?.pending ?? this.pending).push(...violations);
  }

  /**
   * Keeps what the per-exchange checks found (schema, invariants) until the test ends. A property
   * is not shrunk on them: they are about the target's data, not about the generated input.
   */
  recordBackground(violations: readonly Violation[]): void {
    if (inRehearsal()) return;
    for (const violation of violations) {
      const key = `${violation.requirement}|${violation.title}|${violation.received}`;
      if (!this.background.has(key)) this.background.set(key, violation);
    }
  }

  /**
   * Judges everything still unjudged, background included; the fixture calls it as the test ends.
   * After a failure it only annotates the MUST violations (those of the failure and the rest), so
   * that the reporters credit each requirement whichever test met it.
   */
  finish(alreadyFailed: boolean): void {
    const rest = [...this.pending.splice(0), ...this.background.values()];
    this.background.clear();
    if (!alreadyFailed) {
      try {
        return this.enforce(rest);
      } catch (error) {
        this.annotateViolations(this.lastFailure?.violations ?? []);
        throw error;
      }
    }
    const failing = rest.filter((violation) => this.outcomeOf(violation.requirement) === 'fail');
    this.credit(failing.filter((violation) => !this.holds(violation.requirement)));
    this.annotateViolations([...(this.lastFailure?.violations ?? []), ...failing.filter((violation) => this.holds(violation.requirement))]);
  }

  /** Records what the target did on a "not shown" item, for the report. */
  observe(requirementId: string, description: string): void {
    this.outcomeOf(requirementId);
    if (inRehearsal()) return;
    this.annotate('observation', requirementId, description);
  }

  /** Adds an annotation of the given type once (reading summaries, for instance): no requirement's note, so none counts against a limit. */
  note(type: string, description: string): void {
    if (inRehearsal()) return;
    this.addOnce(type, description);
  }

  /**
   * Judges every violation recorded so far plus `violations`: warnings and observations are
   * annotated, MUST violations of other requirements are credited to them, and the MUST ones of
   * this test's own requirements are thrown together as one ConformanceFailure.
   */
  enforce(violations: readonly Violation[] = []): void {
    const rehearsal = inRehearsal();
    if (rehearsal) {
      const own = [...rehearsal.pending.splice(0), ...violations].filter(
        (violation) => this.outcomeOf(violation.requirement) === 'fail' && this.holds(violation.requirement),
      );
      if (own.length > 0) throw new ConformanceFailure(own);
      return;
    }
    const all = [...this.pending.splice(0), ...violations];
    const failures: Violation[] = [];
    for (const violation of all) {
      const outcome = this.outcomeOf(violation.requirement);
      if (outcome === 'fail') {
        if (this.holds(violation.requirement)) failures.push(violation);
        else this.credit([violation]);
      } else if (outcome === 'warn') {
        this.annotate(
          'warning',
          violation.requirement,
          `${violation.title} (expected ${violation.expected}; received ${violation.received})`,
        );
      } else {
        // Not a defect under this profile: said as what the target does, beside what a stricter reading asks.
        this.annotate(
          'observation',
          violation.requirement,
          `what the target does: ${violation.received} (not required under this profile; a stricter reading asks for ${violation.expected}: ${violation.title})`,
        );
      }
    }
    if (failures.length > 0) {
      this.lastFailure = new ConformanceFailure(failures);
      throw this.lastFailure;
    }
  }

  /** The violations credited to requirements this test does not hold, described for the reports. */
  creditedViolations(): CreditedViolation[] {
    return [...this.credited].map(([requirement, violations]) => ({
      requirement,
      message: describeViolations(violations, 5, this.creditedCount.get(requirement)),
    }));
  }

  private holds(requirementId: string): boolean {
    return this.own === undefined || this.own.has(requirementId);
  }

  private credit(violations: readonly Violation[]): void {
    for (const violation of violations) {
      // Counted whole, those it stands for too, whether it is kept to be described or not.
      this.creditedCount.set(violation.requirement, (this.creditedCount.get(violation.requirement) ?? 0) + 1 + (violation.alike ?? 0));
      const kept = this.credited.get(violation.requirement) ?? [];
      if (kept.length < CREDITED_KEPT && !kept.some((other) => other.title === violation.title && other.received === violation.received))
        kept.push(violation);
      this.credited.set(violation.requirement, kept);
    }
    this.annotateViolations(violations);
  }

  private annotateViolations(violations: readonly Violation[]): void {
    for (const violation of violations) this.annotate('violation', violation.requirement, violation.title);
  }

  /** Notes `text` of `requirement` once, up to ANNOTATION_LIMIT of its kind; a warning is also said on stderr. */
  private annotate(kind: NoteKind, requirement: string, text: string): void {
    const type = noteType(kind, requirement);
    if (this.annotated.has(`${type}\n${text}`)) return;
    const sameKind = this.annotationsByKind.get(type) ?? 0;
    this.annotationsByKind.set(type, sameKind + 1);
    if (sameKind >= ANNOTATION_LIMIT) return void this.annotated.add(`${type}\n${text}`);
    this.addOnce(type, text);
    // Named by the test that met it (the first requirement it holds), as a reader finds it in the list.
    if (kind === 'warning') process.stderr.write(`WARN ${this.held[0] ?? requirement}: ${visibleLine(`${requirement} ${text}`)}\n`);
  }

  private addOnce(type: string, description: string): void {
    if (this.annotated.has(`${type}\n${description}`)) return;
    this.annotated.add(`${type}\n${description}`);
    this.testInfo.annotations.push({ type, description: visible(description) });
  }
}

/**
 * The failure message: each violation with Expected/Received, then once per exchange the request,
 * its status and a curl line to reproduce it.
 */
export function describeViolations(violations: readonly Violation[], limit = 5, total = violationCount(violations)): string {
  const shownViolations = violations.slice(0, limit);
  const groups = new Map<Exchange | undefined, Violation[]>();
  for (const violation of shownViolations) groups.set(violation.exchange, [...(groups.get(violation.exchange) ?? []), violation]);
  const blocks = [...groups].map(([exchange, group]) => {
    const lines = group.flatMap((violation) => [
      `${violation.requirement} [${violation.check}] ${violation.title}`,
      `  Expected: ${violation.expected}`,
      `  Received: ${violation.received}`,
      ...(violation.alike ? [`  …and ${violation.alike} more of ${violation.requirement} in the same answer`] : []),
    ]);
    if (exchange) {
      const { request, response } = exchange;
      lines.push(
        `  ${request.method} ${shownUrl(request.url)} → ${response.status}`,
        ...reproduceLines(exchange).map((line) => `  ${line}`),
      );
    }
    return lines.join('\n');
  });
  // What is not described: the violations past the limit, and those of them and of ones kept aside that they stood for.
  const left = total - violationCount(shownViolations);
  const more = left > 0 ? [`…and ${left} more violations`] : [];
  // A target's values may hold characters a terminal obeys: shown as escapes (curl lines have their own).
  return visible([...blocks, ...more].join('\n\n'));
}
