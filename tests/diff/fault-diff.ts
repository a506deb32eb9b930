// One diff run in this process: the reference served through two doors over one store, the candidate
// door with a fault of the catalog, asked and judged as `npm run conformance -- diff` asks and judges
// (cli/diff.ts), without a child process or report files. The diff self-tests and the bench's fault
// sweep (tests/bench/diff-faults.ts) share it. With `writes`, ALLOW_WRITES=true and each side names
// the reference's mark-unread fixture (the same group: the doors share one store).
import { openTwoDoors } from '../../reference/two-doors.ts';
import { readingsOf, type Fault } from '../../reference/faults/fault.ts';
import { loadDiffConfig } from '../../core/run/config.ts';
import type { Wire } from '../../core/transport/wire.ts';
import { Pacer } from '../../core/transport/rate-limit.ts';
import { askBothSides, diffSide } from '../../core/diff/run-diff.ts';
import { diffJudging, judgeDiff, type DiffOutcome } from '../../core/diff/diff-outcome.ts';
import { UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import type { AnswerAges } from '../../reference/answer-age.ts';

const PRIMARY_KEYS = { fullAccess: 'primary-door-full-key-4c1d', readOnly: 'primary-door-readonly-key-8e2a' };
const CANDIDATE_KEYS = { fullAccess: 'candidate-door-full-key-93b7', readOnly: 'candidate-door-readonly-key-0f5c' };

/** The calls a fault is served over when it names no size: what the diff's command self-tests use. */
const DEFAULT_CALLS = 300;

/** ALLOW_WRITES=true, and each side's mark-unread fixture: the reference's own. */
const WRITES = {
  ALLOW_WRITES: 'true',
  GROUP_GUID: UNREAD_FIXTURE.groupGuid,
  MESSAGE_ID: String(UNREAD_FIXTURE.messageId),
  ACTING_UID: UNREAD_FIXTURE.actingUid,
  CANDIDATE_GROUP_GUID: UNREAD_FIXTURE.groupGuid,
  CANDIDATE_MESSAGE_ID: String(UNREAD_FIXTURE.messageId),
  CANDIDATE_ACTING_UID: UNREAD_FIXTURE.actingUid,
};

/**
 * Where the doors differ from the sweep's: the store living at `live` new calls a second, of `calls`
 * calls, and the candidate answering as old as `answerAge` says (a cache, a replica). MAX_ANSWER_AGE is
 * then left at its default, as a user behind such a target leaves it.
 */
export interface AgedDoors {
  live: number;
  calls: number;
  answerAge: AnswerAges;
  /** The store's clock, where a test holds time still (living-calls.ts); by default it runs. */
  clock?: () => number;
  /** MAX_ANSWER_AGE, where the user declares one; by default left at its default. */
  maxAnswerAge?: number;
}

/**
 * The diff of the clean reference (primary) against `fault` (candidate), standing, under `seed`;
 * mark-unread compared too with `writes`; on a living store, the candidate answering old, with `aged`.
 */
export async function diffAgainstFault(
  fault: Fault | undefined,
  seed: number,
  options: { writes?: boolean; aged?: AgedDoors } = {},
): Promise<DiffOutcome> {
  const readings = fault === undefined ? undefined : readingsOf(fault)[0];
  const { aged } = options;
  const doors = await openTwoDoors(
    {
      calls: aged?.calls ?? fault?.calls ?? DEFAULT_CALLS,
      keys: PRIMARY_KEYS,
      ...(readings !== undefined && { readings }),
      ...(aged && { live: { rate: aged.live, ...(aged.clock && { clock: aged.clock }) } }),
    },
    { keys: CANDIDATE_KEYS, ...(fault !== undefined && { fault }), ...(aged && { answerAge: aged.answerAge }) },
  );
  const wires: Wire[] = [];
  try {
    const config = loadDiffConfig({
      CALLS_BASE_URL: doors.primary,
      CHAT_BASE_URL: doors.primary,
      API_KEY: PRIMARY_KEYS.fullAccess,
      RESTRICTED_API_KEY: PRIMARY_KEYS.readOnly,
      CANDIDATE_CALLS_BASE_URL: doors.candidate,
      CANDIDATE_CHAT_BASE_URL: doors.candidate,
      CANDIDATE_API_KEY: CANDIDATE_KEYS.fullAccess,
      CANDIDATE_RESTRICTED_API_KEY: CANDIDATE_KEYS.readOnly,
      CONFORMANCE_SEED: String(seed),
      ...(options.writes === true && WRITES),
      // Unaged, both doors answer from the store as it is (no cache, no replica), as MAX_ANSWER_AGE=0
      // declares: a list's total that falls between two asks then shows on the pages however close
      // together they were asked.
      ...(aged === undefined && { MAX_ANSWER_AGE: '0' }),
      ...(aged?.maxAnswerAge !== undefined && { MAX_ANSWER_AGE: String(aged.maxAnswerAge) }),
    });
    const pacer = new Pacer(config.primary.maxRps);
    const sides = { primary: diffSide(config.primary, pacer, wires), candidate: diffSide(config.candidate, pacer, wires) };
    const asked = await askBothSides(sides, config.primary.seed, config.primary.runs, config.diff.minComparisons);
    return judgeDiff(asked, diffJudging(config));
  } finally {
    await Promise.all(wires.map((wire) => wire.close()));
    await doors.close();
  }
}
