// Differences that only a way of answering the words leave open explains, where learning names no
// reading for it (docs/readings.md): an error's body shape, the bounds of the page size, which group
// calls a user's scope takes in. Where both sides conform and every sample of a difference is of one
// such kind, the difference is a reading that changed, not a behaviour the words are silent on. Each
// is a small pure rule carrying the requirement whose words leave it open.
import { answerErrorCodes } from '../checks/errors.ts';
import { pageOf } from '../checks/pagination.ts';
import type { AnswerDifference } from './answer-differences.ts';
import type { Comparison } from './diff-tally.ts';
import { refusedAnotherWay } from './mark-unread-due.ts';

interface Sample {
  comparison: Comparison;
  difference: AnswerDifference;
}

interface OpenReading {
  /** What the report names: the reading and the requirement that leaves it open. */
  name: string;
  explains: (sample: Sample) => boolean;
}

const isError = (status: number) => status >= 400;

/** Both answers the same error (status and code), only its body shaped otherwise: ERROR-BODY-SHAPE is not shown. */
function sameErrorOtherShape({ comparison }: Sample): boolean {
  const [primary, candidate] = [comparison.primary, comparison.candidate];
  if (!isError(primary.response.status) || primary.response.status !== candidate.response.status) return false;
  const [ours, theirs] = [answerErrorCodes(primary), answerErrorCodes(candidate)];
  return ours.length > 0 && ours.join() === theirs.join();
}

/** A page size was asked and one side answered fewer a page than it: the size's bounds are not shown. */
function pageSizeBounded({ comparison }: Sample): boolean {
  const asked = Object.values(comparison.request.query ?? {}).filter((value) => typeof value === 'number');
  const [primary, candidate] = [pageOf(comparison.primary), pageOf(comparison.candidate)];
  if (primary === undefined || candidate === undefined) return false;
  const [ours, theirs] = [primary.pagination.per_page, candidate.pagination.per_page];
  if (ours === undefined || theirs === undefined || ours === theirs) return false;
  return asked.includes(Math.max(ours, theirs));
}

/**
 * On behalf of a user, one side counts more calls, and every call only it lists is a group call: the
 * words leave open whether the user's groups are in scope. The other side's own calls may then only be
 * those the wider page pushed on to a later page (that page is full).
 */
function groupScope({ comparison, difference }: Sample): boolean {
  if (comparison.request.onBehalfOf === undefined || difference.kind !== 'membership') return false;
  const [primary, candidate] = [pageOf(comparison.primary), pageOf(comparison.candidate)];
  if (primary === undefined || candidate === undefined || primary.pagination.total === candidate.pagination.total) return false;
  const wider = primary.pagination.total > candidate.pagination.total ? 'primary' : 'candidate';
  const widerPage = wider === 'primary' ? primary : candidate;
  const full = widerPage.pagination.per_page !== undefined && widerPage.items.length >= widerPage.pagination.per_page;
  const only = difference.onlyIn ?? [];
  return only.some(({ side }) => side === wider) && only.every(({ side, call }) => (side === wider ? call.receiverType === 'group' : full));
}

const OPEN_READINGS: readonly OpenReading[] = [
  { name: 'error-body-shape (ERROR-BODY-SHAPE, not shown)', explains: sameErrorOtherShape },
  { name: 'page-size-bounds (PAGINATION-PAGE-SIZE-BOUNDS, not shown)', explains: pageSizeBounded },
  { name: 'on-behalf-of-scope of group calls (CALLS-LIST-ON-BEHALF-OF, group membership not shown)', explains: groupScope },
  { name: 'unread-refusal-shown (CHAT-UNREAD-REQUIRES-FULL-ACCESS, how a refusal shows not shown)', explains: refusedAnotherWay },
];

/** The open reading that explains every sample of a difference, if one does. */
export function openReadingOf(samples: readonly Sample[]): string | undefined {
  if (samples.length === 0) return undefined;
  return OPEN_READINGS.find((reading) => samples.every(reading.explains))?.name;
}
