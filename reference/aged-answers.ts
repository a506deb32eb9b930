// Old answers, as a deployment gives them from a lagging read replica or a cache in front of an
// operation (./answer-age.ts says how old). A replica's answer is the store at an earlier moment, so
// the server only asks the store for that moment; a cache keeps whole answers, below.
import type { IncomingHttpHeaders } from 'node:http';
import { isAnswerAge, ANSWER_AGE_RULE, type AnswerAge, type AnswerAges } from './answer-age.ts';
import type { Answer, Operation } from './faults/fault.ts';
import { bytesOf } from './http.ts';

/** What of a request a cache tells requests apart by: a CDN's key, the credentials and acting user included. */
export interface CachedRequest {
  method: string;
  /** The request target in origin form: the path and the query as written. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface AnswerAging {
  /** How many seconds behind now the store an operation reads is: a replica's lag, else 0. */
  behind(operation: Operation | undefined): number;
  /** The answer to an authenticated request: a cache's kept one while fresh, else `compute()`'s (kept when successful). */
  answer(operation: Operation, request: CachedRequest, compute: () => Promise<Answer>): Promise<Answer>;
}

/** The operations whose answers may be old; mark-unread, the one write, is never answered old. */
const AGED: Partial<Record<Operation, keyof AnswerAges>> = { listCalls: 'list', getCall: 'get' };

/** No answer is old: what a server without `answerAge` does. */
const FRESH_ANSWERS: AnswerAging = { behind: () => 0, answer: (_operation, _request, compute) => compute() };

/** `now` is the caches' clock in milliseconds (performance.now by default); a test passes its own to step time. */
export function createAnswerAging(ages: AnswerAges | undefined, now: () => number = () => performance.now()): AnswerAging {
  if (!ages) return FRESH_ANSWERS;
  const ageOf = (operation: Operation | undefined): AnswerAge | undefined => {
    const name = operation === undefined ? undefined : AGED[operation];
    return name === undefined ? undefined : ages[name];
  };
  for (const age of [ages.list, ages.get]) {
    if (age && !isAnswerAge(age)) throw new RangeError(`answerAge must be ${ANSWER_AGE_RULE} (got ${JSON.stringify(age)})`);
  }
  const caches = new Map<Operation, AnswerCache>();
  for (const operation of Object.keys(AGED) as Operation[]) {
    const age = ageOf(operation);
    if (age?.mode === 'cache') caches.set(operation, new AnswerCache(age.seconds * 1000, now));
  }
  return {
    behind: (operation) => {
      const age = ageOf(operation);
      return age?.mode === 'replica' ? age.seconds : 0;
    },
    answer: (operation, request, compute) => caches.get(operation)?.answer(request, compute) ?? compute(),
  };
}

/**
 * A long-running target must not grow without bound: at most this many answers are kept, and at
 * most this many bytes of them (a page of a thousand calls is about a megabyte); the oldest go first.
 */
const MAX_KEPT_ANSWERS = 2_000;
const MAX_KEPT_BYTES = 64 * 1024 * 1024;

interface Kept {
  at: number;
  answer: Answer;
  bytes: number;
}

/**
 * A cache in front of one operation: a distinct request's first successful answer is kept for
 * `lifetimeMs`, and the same request meanwhile gets exactly it again (status and bytes); then the
 * next is computed afresh. Errors are never kept: a gateway caches what succeeded.
 */
export class AnswerCache {
  /** In the order they were kept, so the oldest is first. */
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number,
    private readonly bounds = { answers: MAX_KEPT_ANSWERS, bytes: MAX_KEPT_BYTES },
  ) {}

  async answer(request: CachedRequest, compute: () => Promise<Answer>): Promise<Answer> {
    const key = keyOf(request);
    const found = this.kept.get(key);
    if (found && this.fresh(found)) return found.answer;
    const answer = await compute();
    // Two identical requests computed at once: the first kept stays, as a gateway keeps the first.
    const current = this.kept.get(key);
    if (answer.status >= 200 && answer.status < 300 && !(current && this.fresh(current))) this.keep(key, answer);
    return answer;
  }

  /** How many answers are kept now. */
  get size(): number {
    return this.kept.size;
  }

  private fresh(kept: Kept): boolean {
    return this.now() - kept.at < this.lifetimeMs;
  }

  private keep(key: string, answer: Answer): void {
    const raw = bytesOf(answer);
    const bytes = Buffer.byteLength(raw.text);
    if (this.lifetimeMs <= 0 || bytes > this.bounds.bytes) return;
    this.forget(key);
    // Only status and bytes are kept: the body object would double what each answer holds.
    this.kept.set(key, { at: this.now(), answer: { status: answer.status, body: undefined, raw }, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.kept.size <= this.bounds.answers && this.bytes <= this.bounds.bytes && this.fresh(entry)) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    this.bytes -= this.kept.get(key)?.bytes ?? 0;
    this.kept.delete(key);
  }
}

function keyOf({ method, target, headers }: CachedRequest): string {
  const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : (value ?? null));
  return JSON.stringify([method, target, header(headers.apikey), header(headers.onbehalfof)]);
}
