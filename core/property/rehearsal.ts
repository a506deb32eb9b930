// How a property's examples wait on the target together while fast-check still runs them one by one.
// Before fast-check runs a property, every example it will generate (the same seed gives the same
// values: fc.sample) is rehearsed, several at once: the predicate runs as it will, its requests go
// to the target, and each answer is kept by its example and request. Nothing of a rehearsal reaches
// the test: the verdict keeps its violations apart, the client records no exchange. Then fast-check
// runs the property as always, and each example's requests are answered from what its own rehearsal
// kept (in the order it sent them), so the run judges the same answers, records the same exchanges
// and reports, shrinks and replays a failure as before. A request the rehearsal did not send
// (shrinking tries new values) goes to the target.
// Answers are kept by example, not by request alone: two examples that ask the same question ask it
// at different moments, and on a living target an example that asks one list after another, or asks
// again to see whether the data moved, must be judged on its own answers, in its own order. Shared
// by request, one example's comparison was judged on another's answer to the same list, taken
// before its own first one: a call missing from it that had not yet been logged.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Violation } from '../checks/violation.ts';

/** Answers kept by their request, each request's in the order they were sent. */
export class AnswerMemo<Answer> {
  private readonly byRequest = new Map<string, Array<Promise<Answer>>>();

  keep(request: string, answer: Promise<Answer>): void {
    // A rejected answer (the target found unavailable) is the replay's to rethrow, not unhandled here.
    answer.catch(() => undefined);
    const kept = this.byRequest.get(request);
    if (kept) kept.push(answer);
    else this.byRequest.set(request, [answer]);
  }

  /** The next kept answer to this request, taken, or undefined when none is left. */
  take(request: string): Promise<Answer> | undefined {
    const kept = this.byRequest.get(request);
    const answer = kept?.shift();
    if (kept?.length === 0) this.byRequest.delete(request);
    return answer;
  }

  /** Answers kept and never taken. */
  left(): number {
    let count = 0;
    for (const kept of this.byRequest.values()) count += kept.length;
    return count;
  }
}

export type Stage =
  /** An example run ahead of fast-check: answers are kept, violations stay in `pending`. */
  | { kind: 'rehearsal'; memo: AnswerMemo<unknown>; pending: Violation[] }
  /** fast-check's own run: answers come from the memo while it has them. */
  | { kind: 'replay'; memo: AnswerMemo<unknown> };

const stages = new AsyncLocalStorage<Stage>();

/** The stage the current code runs in, if any (the transport, the client and the verdict ask). */
export const currentStage = (): Stage | undefined => stages.getStore();

export const inRehearsal = (): Extract<Stage, { kind: 'rehearsal' }> | undefined => {
  const stage = stages.getStore();
  return stage?.kind === 'rehearsal' ? stage : undefined;
};

/**
 * Rehearses `values` through `predicate`, at most `concurrency` at once, and returns the answers each
 * example's rehearsal kept, by its key (`keyOf`). Whatever a rehearsal throws is the replay's to meet
 * again: it is dropped here.
 */
export async function rehearse<T>(
  values: readonly T[],
  concurrency: number,
  keyOf: (value: T) => string,
  predicate: (value: T) => Promise<void>,
): Promise<Map<string, AnswerMemo<unknown>>> {
  const memos = new Map<string, AnswerMemo<unknown>>();
  let next = 0;
  const lane = async () => {
    while (next < values.length) {
      const value = values[next++]!;
      const memo = new AnswerMemo<unknown>();
      memos.set(keyOf(value), memo);
      await stages.run({ kind: 'rehearsal', memo, pending: [] }, () => predicate(value)).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, lane));
  return memos;
}

/** Runs `work` (fast-check's run of one example) answering from its rehearsal's `memo` while it has answers; without one, from the target. */
export const replayFrom = <T>(memo: AnswerMemo<unknown> | undefined, work: () => Promise<T>): Promise<T> =>
  memo ? stages.run({ kind: 'replay', memo }, work) : work();
