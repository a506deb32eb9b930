// What judging a big answer found, remembered by the answer, so that it is judged once per run. A
// run meets the same page many times: each test that lists it, and each worker that starts (again,
// after every failed test) replays the learned answers and judges them. A page of megabytes costs
// about a second and a half to judge (a call of 100,000 entries each missing three fields: 300,000
// schema errors); judged once per meeting, such a target kept a run busy for minutes.
import { createHash } from 'node:crypto';
import type { Exchange } from '../transport/exchange.ts';
import type { Violation } from './violation.ts';

/** What an answer's judging found, without the exchange (the next one that carries it takes its place). */
export type Finding = Omit<Violation, 'exchange'>;

/** Where findings are kept: this process's memory, or a folder the run's workers share too. */
export interface AnswerMemory {
  recall(key: string): Finding[] | undefined;
  keep(key: string, found: Finding[]): void;
}

/** Answers of at least this many characters are remembered; the hash of a smaller one would cost about what judging it does. */
export const REMEMBERED_FROM_CHARS = 100_000;
/** How many findings one process keeps in memory, the latest used kept. */
const KEPT_IN_PROCESS = 64;

/**
 * The key of an answer under a context: its operation, status and text, and what of the context
 * judging reads (the readings, the target's clock, the settling time), so that two contexts never
 * share a finding one of them would not have made.
 */
export function answerKey(exchange: Exchange, context: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(context))
    .update('\n')
    .update(`${exchange.operation} ${exchange.response.status}\n`)
    .update(exchange.response.text)
    .digest('hex');
}

/** Findings kept in this process, the least recently used forgotten first; `behind`, when given, is asked for what this one does not hold. */
export function memoryInProcess(behind?: AnswerMemory): AnswerMemory {
  const kept = new Map<string, Finding[]>();
  const hold = (key: string, found: Finding[]) => {
    kept.delete(key);
    kept.set(key, found);
    if (kept.size > KEPT_IN_PROCESS) kept.delete(kept.keys().next().value!);
  };
  return {
    recall(key) {
      const found = kept.get(key) ?? behind?.recall(key);
      if (found !== undefined) hold(key, found);
      return found;
    },
    keep(key, found) {
      hold(key, found);
      behind?.keep(key, found);
    },
  };
}
