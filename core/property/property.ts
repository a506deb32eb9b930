// Properties run through fast-check with the configured seed and number of runs. A failing
// property is reported with what a reader needs to act on it: the violations of the smallest
// counterexample (requirement id, Expected/Received, the exchange and its curl line), the
// counterexample itself, and the seed and path that replay exactly that run.
// With more than one request allowed in flight, the examples are first rehearsed several at once
// (rehearsal.ts), so that fast-check's own run, one example after another, waits on no network.
// An example equal to one that has already passed is not run again (Hypothesis does the same): it
// would ask the target what it has just answered. A filter with two values otherwise asked the same
// two questions ten times each in a property of 20 runs.
import fc from 'fast-check';
import { rehearse, replayFrom, type AnswerMemo } from './rehearsal.ts';
import type { SuiteConfig } from '../run/config.ts';
import { replayCommand } from '../results/replay-command.ts';
import { ConformanceFailure, type Verdict } from '../run/verdict.ts';
import { TransportError } from '../transport/errors.ts';
import { shownString } from '../checks/violation.ts';

export interface PropertyOptions<T = unknown> {
  /** Runs for this property, when it must differ from the configured number (e.g. one per sample). */
  runs?: number;
  /**
   * Examples run first, before the drawn ones, and counted among the runs (fast-check's `examples`):
   * the values that tell most, chosen from the target's own data, which a draw of a few runs may miss.
   * A replay gives the same ones, so a path names the same example.
   */
  examples?: readonly T[];
}

export async function assertProperty<T>(
  context: {
    verdict: Verdict;
    config: SuiteConfig;
    /** The requirement the test holds: its replay line chooses the test by it. */
    requirement: string;
    concurrency?: number;
    /** Told whether the suite waits out answers' age (answer-age.ts): not while fast-check shrinks a counterexample. */
    waitForAge?: (waits: boolean) => void;
  },
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions<T> = {},
): Promise<void> {
  const { config, verdict } = context;
  // A transport error (the target unavailable, the budget spent) says nothing about the input: it is
  // rethrown as it is, and the shrinking fast-check does meanwhile sends nothing more.
  let transportError: TransportError | undefined;
  const numRuns = options.runs ?? config.runs;
  const examples = (options.examples ?? []).slice(0, numRuns);
  // Examples are told apart as fast-check prints them, which names each exactly: a sampled call by its
  // sessionId and the request that listed it, a near miss of a key by its placeholder and the edit.
  // A replay runs one example, its counterexample: nothing to rehearse.
  const rehearsed =
    (context.concurrency ?? 1) > 1 && config.replayPath === undefined
      ? await rehearse(
          distinctExamples([...examples, ...drawn(arbitrary, config.seed, numRuns - examples.length)]),
          context.concurrency!,
          fc.stringify,
          predicate,
        )
      : new Map<string, AnswerMemo<unknown>>();
  const passed = new Set<string>();
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      if (transportError) throw transportError;
      const example = fc.stringify(value);
      // Only an example that passed is skipped, so shrinking skips what it already knows passes.
      if (passed.has(example)) return;
      try {
        // Its own rehearsal's answers, once: an example run again (shrinking meets it anew) asks the target.
        const memo = rehearsed.get(example);
        rehearsed.delete(example);
        await replayFrom(memo, () => predicate(value));
      } catch (error) {
        if (error instanceof TransportError) transportError = error;
        // What fast-check tries from now on are shrinks: each is judged without waiting.
        context.waitForAge?.(false);
        throw error;
      }
      try {
        verdict.enforce();
      } catch (error) {
        context.waitForAge?.(false);
        throw error;
      }
      passed.add(example);
    }),
    {
      seed: config.seed,
      numRuns,
      examples: examples.map((example): [T] => [example]),
      ...(config.replayPath !== undefined && { path: config.replayPath, endOnFailure: true }),
    },
  );
  context.waitForAge?.(true);
  if (transportError) throw transportError;
  if (details.failed) throw propertyFailure(details, config, context.requirement);
}

/** What a failed property reports: the violations, the counterexample, and the line that replays it. */
function propertyFailure<T>(details: fc.RunDetails<[T]>, config: SuiteConfig, requirement: string): PropertyFailure {
  const error = details.errorInstance;
  const cause =
    error instanceof ConformanceFailure ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new PropertyFailure(
    [
      cause,
      '',
      `Counterexample: ${printedCounterexample(details.counterexample?.[0])}`,
      `Shrunk ${details.numShrinks} time(s) after ${details.numRuns} run(s); seed ${details.seed}, path ${details.counterexamplePath}`,
      `Replay with: ${replayCommand(config.launcher, details.seed, details.counterexamplePath ?? '', requirement)}`,
    ].join('\n'),
  );
}

/** The values fast-check draws after the examples: the same seed draws the same ones, whatever examples come first. */
function drawn<T>(arbitrary: fc.Arbitrary<T>, seed: number, numRuns: number): T[] {
  return numRuns > 0 ? fc.sample(arbitrary, { seed, numRuns }) : [];
}

/** The examples, each once, in the order fast-check will first run them. */
function distinctExamples<T>(values: readonly T[]): T[] {
  const byExample = new Map<string, T>();
  for (const value of values) {
    const example = fc.stringify(value);
    if (!byExample.has(example)) byExample.set(example, value);
  }
  return [...byExample.values()];
}

/**
 * Counterexamples drawn from the target's data can be whole calls with long participant lists; the
 * replay line reproduces them exactly, so the message keeps only their start.
 */
const COUNTEREXAMPLE_LIMIT = 1_500;
/** A string counterexample is one value: its start, its length and the replay line say enough. */
const STRING_LIMIT = 200;
const excerpt = (text: string) =>
  text.length > COUNTEREXAMPLE_LIMIT ? `${text.slice(0, COUNTEREXAMPLE_LIMIT)}… (${text.length} characters in all)` : text;

/**
 * A counterexample as a reader can see it: a string (a session id, a key) escaped, a run of one
 * character named with its count, and its length when cut (shownString); anything else as
 * fast-check prints it, cut to its start.
 */
export function printedCounterexample(value: unknown): string {
  return typeof value === 'string' ? shownString(value, STRING_LIMIT) : excerpt(fc.stringify(value));
}

/** Like ConformanceFailure, printed as its message alone: it names the seed and path that replay it. */
class PropertyFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PropertyFailure';
    this.stack = `${this.name}: ${message}`;
  }
}
