// The deterministic data set for a seed and a number of calls: the directory (users, groups,
// messages) kept whole, and the calls kept as index rows that can be materialised on demand.
// The readings change the calls' totals, and so the rows' totalParticipants, and nothing else.
import { createRandom } from './random.ts';
import { generateDirectory, type Directory } from './directory.ts';
import { callSource, generateCall } from './calls.ts';
import type { Call, StoredCall } from '../model.ts';
import { DEFAULT_READINGS, type ReferenceReadings } from '../readings.ts';
import { countedEntries } from './call-totals.ts';

/** What the store keeps of a call to filter, sort and find it; the rest is rebuilt from `index`. */
export interface CallRow {
  index: number;
  sessionId: string;
  type: Call['type'];
  mode: Call['mode'];
  status: Call['status'];
  receiverType: Call['receiverType'];
  receiver: string;
  totalParticipants: number;
  /** The distinct users among the entries totalParticipants counts: what participantsCount counts when it counts people. */
  people: number;
  hasRecording: boolean;
  initiatedAt: number;
  startedAt: number;
  endedAt: number | undefined;
  /** The distinct uids of the participant entries. */
  uids: readonly string[];
  /**
   * Set on the row of a call the living reference logged while it runs (../live/): which of them it
   * is and the moment the row shows it at, so that materialising the row shows the call at that
   * same moment. Such a row's `index` is minus its number, apart from the data set's indexes.
   */
  live?: { number: number; at: number };
}

export interface DataSet extends Directory {
  seed: number;
  /** How its calls' minutes and totalParticipants read the specification (../readings.ts). */
  readings: ReferenceReadings;
  /** Calls in the stable order List Calls answers them: newest initiatedAt first, then by sessionId. */
  rows: CallRow[];
  materialize(row: CallRow): StoredCall;
}

export function generateDataSet(seed: number, callCount: number, readings: ReferenceReadings = DEFAULT_READINGS): DataSet {
  const directory = generateDirectory(createRandom(seed), callCount);
  const source = callSource(seed, directory, readings);
  const rows = new Array<CallRow>(callCount);
  for (let index = 0; index < callCount; index += 1) rows[index] = toRow(index, generateCall(source, index, false).call, readings);
  rows.sort(inListOrder);
  return { seed, readings, ...directory, rows, materialize: (row) => generateCall(source, row.index, true) };
}

/** The order List Calls answers in: newest initiatedAt first, then by sessionId. */
export const inListOrder = (a: CallRow, b: CallRow): number =>
  b.initiatedAt - a.initiatedAt || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0);

export function toRow(index: number, call: Call, readings: ReferenceReadings): CallRow {
  return {
    index,
    sessionId: call.sessionId,
    type: call.type,
    mode: call.mode,
    status: call.status,
    receiverType: call.receiverType,
    receiver: call.receiver,
    totalParticipants: call.totalParticipants,
    people: new Set(countedEntries(readings, call.participants).map((participant) => participant.uid)).size,
    hasRecording: call.hasRecording,
    initiatedAt: call.initiatedAt,
    startedAt: call.startedAt,
    endedAt: call.endedAt,
    uids: [...new Set(call.participants.map((participant) => participant.uid))],
  };
}
