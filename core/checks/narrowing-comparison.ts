// How a combination of filters is compared with each of its filters alone (CALLS-LIST-AND-NARROWING):
// which lists are asked, in what order, and which of narrowing.ts's comparisons they are judged by.
// Two answers taken at different moments are compared only on what cannot have moved between them:
// on pinned ground (learning/still-ground.ts) every list is bounded alike and compared whole, totals
// included (moving-data.ts's judgeStill); elsewhere each filter alone is asked only after the
// combination and judged only by the calls it lacks (judgeInOrder), as a call only ever moves on.
import type { CallsApi, Query } from '../transport/api.ts';
import type { Ground } from '../learning/still-ground.ts';
import type { AnswerAge } from './answer-age.ts';
import { filterQuery, givenFilters, type FilterName, type Filters } from './filters.ts';
import { judgeInOrder, judgeStill, type StillOutcome } from './moving-data.ts';
import { andNarrowingSubset, isWhole, andNarrowingTotal } from './narrowing.ts';
import { UNENDED_STATUSES } from './settling.ts';

/**
 * The endedAt every list of a comparison is bounded by, where the endedAt filter is an upper bound:
 * the pin, or the combination's own endedAt when it is no later than the pin (a later one lets in
 * calls that end from now on, so it is no ground that stands); none when the combination asks for
 * calls not yet ended (a bound would leave nothing to compare).
 */
export function boundOf(filters: Filters, ground: Ground): number | undefined {
  if (ground.kind !== 'pinned' || UNENDED_STATUSES.has(String(filters.status))) return undefined;
  const pin = Number(ground.query.endedAt);
  if (filters.endedAt === undefined) return pin;
  return Number(filters.endedAt) <= pin ? Number(filters.endedAt) : undefined;
}

/**
 * The comparisons of one test, example by example, counting on what ground each was made so that
 * the report can say what the requirement was judged on.
 */
export class NarrowingComparison {
  private readonly examples = { pinned: 0, ownEnd: 0, moving: 0, unnamed: 0 };

  constructor(
    private readonly api: Pick<CallsApi, 'listCalls'>,
    private readonly ground: Ground,
    private readonly answerAge: AnswerAge,
  ) {}

  /** Asks the combination `filters` and each of its filters alone, and judges whether it narrows them. */
  async compare(filters: Filters): Promise<StillOutcome> {
    const bound = boundOf(filters, this.ground);
    return bound === undefined ? this.inOrder(filters) : this.together(filters, bound);
  }

  /**
   * Every list bounded alike, by the pin or by the combination's own endedAt when that is older:
   * history that can no longer change, so the lists are asked together and compared whole.
   */
  private async together(filters: Filters, bound: number): Promise<StillOutcome> {
    if (filters.endedAt === undefined) this.examples.pinned += 1;
    else this.examples.ownEnd += 1;
    const names = givenFilters(filters);
    const pinOf = (query: Query): Query => (query.endedAt === undefined ? { ...query, endedAt: bound } : query);
    const take = async () => ({
      answers: await Promise.all([
        this.api.listCalls(pinOf(filterQuery(filters))),
        ...names.map((name) => this.api.listCalls(pinOf({ [name]: filters[name]! }))),
      ]),
    });
    return judgeStill(
      take,
      ({ answers: [combination, ...singles] }) =>
        names.flatMap((name, index) => [
          ...andNarrowingTotal(combination, filters, singles[index]!, label(filters, name)),
          ...andNarrowingSubset(combination, filters, singles[index]!, label(filters, name)),
        ]),
      this.answerAge,
    );
  }

  /**
   * Moving ground (calls not yet ended, or no pin): each filter alone is asked only once the
   * combination has answered, and judged only by the calls it lacks, where it shows them all. Its
   * total is not compared: a total says nothing of which calls moved between the two answers.
   */
  private async inOrder(filters: Filters): Promise<StillOutcome> {
    this.examples.moving += 1;
    const names = givenFilters(filters);
    return judgeInOrder(
      {
        first: () => this.api.listCalls(filterQuery(filters)),
        then: () => Promise.all(names.map((name) => this.api.listCalls({ [name]: filters[name]! }))),
        judge: (combination, singles) => {
          this.examples.unnamed += singles.filter((single) => !isWhole(single)).length;
          return names.flatMap((name, index) => andNarrowingSubset(combination, filters, singles[index]!, label(filters, name)));
        },
        answersOf: (taken) => (Array.isArray(taken) ? taken : [taken]),
        explainedByAge: (seconds) => this.answerAge.saw('listCalls', seconds),
      },
      this.answerAge,
    );
  }

  /** On what ground the examples were compared, for the requirement's observation. */
  describe(): string {
    const { pinned, ownEnd, moving, unnamed } = this.examples;
    return `subsets compared on ${this.ground.describe}; ${pinned} example run(s) on that ground, ${ownEnd} bounded by their own endedAt, ${moving} on moving ground (a status of calls not yet ended, an endedAt after the pin, or no pin), where each filter alone was asked after the combination and judged only by the calls it lacks${unnamed > 0 ? ` (${unnamed} answer(s) of a filter alone larger than one page could not be judged that way)` : ''}`;
  }
}

/** How a filter alone is named in a finding: `name=value`. */
const label = (filters: Filters, name: FilterName) => `${name}=${String(filters[name])}`;
