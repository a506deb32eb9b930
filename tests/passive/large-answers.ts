// Answers of one call with a great many participant entries (issue 46, item 2: a List Calls page
// whose first call had 100,000 entries, 3 MB, made the suite spin for 15 minutes and more), as HAR
// entries: the deployed API's published list (tests/real-payloads/) with its first call given
// `entries` more participant entries, and Get Call answering the same call with its entries in the
// reverse order, so that the comparison of the two views pairs every entry. The passive self-test
// (large-answer.spec.ts) and the bench (tests/bench/answer-size.ts) judge them.
import { readFileSync } from 'node:fs';
import { harEntry } from './har-entries.ts';
import type { HarEntry } from './recording-forwarder.ts';

/**
 * What the added entries are:
 * - `missing-fields`: `{"uid": "user-7", "isJoined": false}`, each without the state and minutes the
 *   contract requires (about 34 bytes an entry: 100,000 are the 3.4 MB the issue reported);
 * - `multi-device`: the call's two joined users again and again, each time on a device of its own;
 * - `never-joined`: invitees who never answered, each as the contract wants it.
 */
export const ENTRY_SHAPES = ['missing-fields', 'multi-device', 'never-joined'] as const;
export type EntryShape = (typeof ENTRY_SHAPES)[number];

const CALLS = 'https://31780434a95d45.call-us.cometchat.io/v3';
const HEADERS = { apikey: 'large-answer-key-8d7c6b5a4f3e', Accept: 'application/json' };

const list = JSON.parse(readFileSync(new URL('../real-payloads/list-calls.json', import.meta.url), 'utf8')) as {
  data: Array<Record<string, unknown> & { participants: Array<Record<string, unknown>> }>;
  meta: unknown;
};

function entry(shape: EntryShape, index: number): Record<string, unknown> {
  if (shape === 'missing-fields') return { uid: `user-${index}`, isJoined: false };
  if (shape === 'never-joined')
    return { uid: `user-${index}`, totalAudioMinutes: 0, totalVideoMinutes: 0, isJoined: false, state: 'unanswered' };
  // The published call's first two entries are its two users who joined.
  return { ...list.data[0]!.participants[index % 2], deviceId: `device-${index}@large-answer` };
}

/** The call with `entries` entries of `shape` added to its own five, its totalParticipants counting them as the published call counts its own. */
function largeCall(entries: number, shape: EntryShape): Record<string, unknown> & { participants: unknown[] } {
  const first = list.data[0]!;
  const participants = [...first.participants];
  for (let index = 0; index < entries; index += 1) participants.push(entry(shape, index));
  // The published calls count the entries that joined in totalParticipants (a reading the words allow): so does this one.
  return { ...first, participants, totalParticipants: participants.filter((participant) => participant.isJoined === true).length };
}

/** A List Calls answer whose first call is largeCall, then Get Call answering that call with its entries reversed. */
export function largeAnswerEntries(entries: number, shape: EntryShape): HarEntry[] {
  const call = largeCall(entries, shape);
  const listed = { ...list, data: [call, ...list.data.slice(1)] };
  const fetched = { data: { ...call, participants: [...call.participants].reverse() } };
  return [
    harEntry({ url: `${CALLS}/calls`, headers: HEADERS, status: 200, body: listed }),
    harEntry({ url: `${CALLS}/calls/${encodeURIComponent(String(call.sessionId))}`, headers: HEADERS, status: 200, body: fetched }),
  ];
}
