// Two answers to the same request, the primary's and the candidate's, compared as the interface
// reads them: array positions generalised in paths (`data[].participants[].state`), a list of calls
// compared by sessionId (as a set, or as a sequence where the learned order says so), and each
// difference named by its class. Pure: the same two answers give the same differences, and the cost
// grows with what was received, no faster (a call is found by its id in a map, never by a search).

import { UNENDED_STATUSES } from '../checks/settling.ts';

export type DifferenceClass =
  'status' | 'error-code' | 'missing-field' | 'extra-field' | 'type' | 'value' | 'order' | 'size' | 'membership';

/** The path a difference of status is filed under: no field of the body holds it. */
const STATUS_PATH = '(status)';

export interface AnswerDifference {
  /** Generalised: `data[].participants[].state`. */
  path: string;
  kind: DifferenceClass;
  /** The first values seen at the path, each side's, shown in a report (for membership, the sessionIds). */
  primary?: unknown;
  candidate?: unknown;
  /**
   * For membership: every call one side listed and the other not, each with the side that listed it
   * (the answers' own objects, so no larger than what was received). All of them: the movement rules
   * judge each (diff-tally.ts), and the first few of a newest-first list are the calls least likely
   * to have settled, so a few taken for all would hide every settled call a filter dropped.
   */
  onlyIn?: Array<{ side: 'primary' | 'candidate'; call: Record<string, unknown> }>;
}

export interface ComparedAnswer {
  status: number;
  body: unknown;
  /**
   * What the body is, as a client reads it: its media type, and whether its bytes are UTF-8 (the
   * suite's json-body.ts judges the same). Two answers with the same parsed body still differ here.
   */
  format?: string;
}

export interface CompareOptions {
  /** Lists of calls as sequences (the order both sides were learned to follow), else as sets. */
  orderedLists: boolean;
  /** Whether a call can no longer move (settling.ts): a call still moving is compared on its presence only. */
  isStill?: (call: Record<string, unknown>) => boolean;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const errorCode = (body: unknown) => (isObject(body) && isObject(body.error) ? body.error.code : undefined);

/** Every difference of the two answers, one per path and class (the first values seen kept). */
export function answerDifferences(primary: ComparedAnswer, candidate: ComparedAnswer, options: CompareOptions): AnswerDifference[] {
  const found = new Map<string, AnswerDifference>();
  const note = (difference: AnswerDifference) => {
    const key = `${difference.kind} ${difference.path}`;
    if (!found.has(key)) found.set(key, difference);
  };
  if (primary.status !== candidate.status)
    note({ path: STATUS_PATH, kind: 'status', primary: primary.status, candidate: candidate.status });
  const codes = [errorCode(primary.body), errorCode(candidate.body)];
  if (codes[0] !== codes[1] && (codes[0] !== undefined || codes[1] !== undefined))
    note({ path: 'error.code', kind: 'error-code', primary: codes[0], candidate: codes[1] });
  if (primary.format !== candidate.format) note({ path: '(body)', kind: 'type', primary: primary.format, candidate: candidate.format });
  // A different status is a different answer: its body is not compared field by field.
  if (primary.status === candidate.status) new Walk(note, options).compare(primary.body, candidate.body, '');
  return [...found.values()];
}

const join = (path: string, field: string) => (path === '' ? field : `${path}.${field}`);

class Walk {
  constructor(
    private readonly note: (difference: AnswerDifference) => void,
    private readonly options: CompareOptions,
  ) {}

  compare(primary: unknown, candidate: unknown, path: string): void {
    const kinds = [kindOf(primary), kindOf(candidate)];
    if (kinds[0] !== kinds[1]) return this.note({ path: path || '(body)', kind: 'type', primary: kinds[0], candidate: kinds[1] });
    if (Array.isArray(primary)) return this.arrays(primary, candidate as unknown[], path);
    if (isObject(primary) && isSameCall(primary, candidate as Json)) return this.call(primary, candidate as Json, path);
    if (isObject(primary)) return this.objects(primary, candidate as Json, path);
    if (primary !== candidate) this.note({ path: path || '(body)', kind: 'value', primary, candidate });
  }

  private objects(primary: Json, candidate: Json, path: string): void {
    for (const field of Object.keys(primary)) {
      if (field === 'error' && path === '') continue; // its code is compared on its own, its message is prose
      if (!Object.hasOwn(candidate, field)) this.note({ path: join(path, field), kind: 'missing-field', primary: primary[field] });
      else this.compare(primary[field], candidate[field], join(path, field));
    }
    for (const field of Object.keys(candidate))
      if (!Object.hasOwn(primary, field)) this.note({ path: join(path, field), kind: 'extra-field', candidate: candidate[field] });
  }

  private arrays(primary: unknown[], candidate: unknown[], path: string): void {
    const callsOrNone = (items: unknown[]) => items.length === 0 || isCallList(items);
    if (primary.length + candidate.length > 0 && callsOrNone(primary) && callsOrNone(candidate))
      return this.calls(primary as Json[], candidate as Json[], path);
    if (primary.length !== candidate.length)
      this.note({ path: `${path}[]`, kind: 'size', primary: primary.length, candidate: candidate.length });
    const shared = Math.min(primary.length, candidate.length);
    for (let index = 0; index < shared; index++) this.compare(primary[index], candidate[index], `${path}[]`);
  }

  /** Calls matched by sessionId: who lists which, then each call shown by both, field by field. */
  private calls(primary: Json[], candidate: Json[], path: string): void {
    const list = `${path}[]`;
    const byId = new Map(candidate.map((call) => [call.sessionId as string, call]));
    const primaryIds = new Set(primary.map((call) => call.sessionId as string));
    const onlyIn: NonNullable<AnswerDifference['onlyIn']> = [];
    for (const call of primary) if (!byId.has(call.sessionId as string)) onlyIn.push({ side: 'primary', call });
    for (const call of candidate) if (!primaryIds.has(call.sessionId as string)) onlyIn.push({ side: 'candidate', call });
    if (onlyIn.length > 0)
      this.note({
        path: list,
        kind: 'membership',
        primary: onlyIn.filter(({ side }) => side === 'primary').map(({ call }) => call.sessionId),
        candidate: onlyIn.filter(({ side }) => side === 'candidate').map(({ call }) => call.sessionId),
        onlyIn,
      });
    for (const call of primary) {
      const other = byId.get(call.sessionId as string);
      if (other !== undefined) this.call(call, other, list);
    }
    if (!this.options.orderedLists) return;
    const sharedInPrimary = primary.filter((call) => byId.has(call.sessionId as string)).map((call) => call.sessionId);
    const sharedInCandidate = candidate.filter((call) => primaryIds.has(call.sessionId as string)).map((call) => call.sessionId);
    if (sharedInPrimary.some((id, index) => sharedInCandidate[index] !== id))
      this.note({ path: list, kind: 'order', primary: sharedInPrimary.slice(0, 5), candidate: sharedInCandidate.slice(0, 5) });
  }

  /**
   * One call as both answers show it (an entry of two lists, or Get Call's): in full where either
   * shows it settled (then it had settled before any answer within the age allowed was taken, so
   * both are due its final state), else only as fieldsPresent allows, for its values may have moved
   * between the asks.
   */
  private call(primary: Json, candidate: Json, path: string): void {
    const isStill = this.options.isStill ?? (() => true);
    if (isStill(primary) || isStill(candidate)) this.objects(primary, candidate, path);
    else if (primary.status === candidate.status && UNENDED_STATUSES.has(String(primary.status)))
      this.fieldsPresent(primary, candidate, path);
  }

  /**
   * A call not yet ended, shown in the same status by both answers, compared on which of its own
   * fields it carries: its values may move between the asks (and what settles late does so after its
   * end, which is not compared so), but a field a call in that status carries on one side and not on
   * the other is no movement (a media id left out of ongoing calls, say).
   */
  private fieldsPresent(primary: Json, candidate: Json, list: string): void {
    for (const field of Object.keys(primary))
      if (!Object.hasOwn(candidate, field)) this.note({ path: join(list, field), kind: 'missing-field', primary: primary[field] });
    for (const field of Object.keys(candidate))
      if (!Object.hasOwn(primary, field)) this.note({ path: join(list, field), kind: 'extra-field', candidate: candidate[field] });
  }
}

/** Two objects that are one call: the same string sessionId. */
const isSameCall = (primary: Json, candidate: Json) => typeof primary.sessionId === 'string' && primary.sessionId === candidate.sessionId;

/** A list of calls: objects each with a string sessionId, all distinct (else compared by position). */
function isCallList(items: readonly unknown[]): items is Json[] {
  if (items.length === 0 || !items.every((item) => isObject(item) && typeof item.sessionId === 'string')) return false;
  return new Set(items.map((item) => (item as Json).sessionId)).size === items.length;
}
