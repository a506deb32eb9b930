// A target whose busiest call has a great many participant entries (issue 46, item 2: a List Calls
// page whose first call had 100,000 entries, 3 MB, made the run spin for 15 minutes and more): the
// reference, the first call of its default list given `entries` more entries wherever it is shown,
// each `{"uid": "user-N", "isJoined": false}`, without the state and minutes the contract requires.
// The active self-test (large-answer.spec.ts) and the bench (tests/bench/answer-size.ts) run against it.
import { createServer } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import type { Fault } from '../../reference/faults/fault.ts';

export interface LargeAnswerTarget {
  base: string;
  /** The List Calls answer that carries the call, in bytes. */
  firstPageBytes: number;
  /** How many answers showed the call with its entries: a run that met it did judge it. */
  shown(): number;
  close(): Promise<void>;
}

export async function startLargeAnswerTarget(entries: number): Promise<LargeAnswerTarget> {
  const added = Array.from({ length: entries }, (_, index) => ({ uid: `user-${index}`, isJoined: false }));
  /** The call given the entries: the first of the default list, known once the server answers. */
  const big: { sessionId?: unknown } = {};
  let shown = 0;
  const fault: Fault = {
    name: 'large-answer',
    description: `the first call of the default list carries ${entries} more participant entries, each missing its state and minutes`,
    requirements: [],
    hooks: () => ({
      showCall: (call) => {
        if (big.sessionId === undefined || call.sessionId !== big.sessionId) return call;
        shown += 1;
        const participants = [...(call.participants as unknown[]), ...added];
        return { ...call, participants, totalParticipants: participants.length };
      },
    }),
  };
  const server = createServer({ fault });
  const base = await server.listen(0);
  const first = await fetch(`${base}/calls?perPage=1`, { headers: { apikey: DEMO_KEYS.fullAccess } });
  big.sessionId = ((await first.json()) as { data: Array<{ sessionId: string }> }).data[0]!.sessionId;
  const page = await fetch(`${base}/calls`, { headers: { apikey: DEMO_KEYS.fullAccess } });
  const firstPageBytes = (await page.arrayBuffer()).byteLength;
  shown = 0;
  return { base, firstPageBytes, shown: () => shown, close: () => server.close() };
}
