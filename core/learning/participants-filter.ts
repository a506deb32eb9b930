// What the participantsCount filter counts, "exactly this number of participants" (4.1), is not
// forced by the words: totalParticipants counts participant entries (2.1), each device an entry
// (1.6), but the filter's words say participants, and "a participant is identified by a user
// identifier" (1.2). So the filter is learned on its own, never assumed to count as totalParticipants
// does: entries or people (distinct uids), every one or the joined ones. The candidates disagree only
// on calls with never-joined entries or a user on several devices; for a few such calls the suite asks
// for each count the candidates give, pinned to the call's own type, mode, status, receiver type and
// a user who joined it (in its scope under every reading of "took part"), and rules out each candidate
// an answer contradicts: the call returned for a count the candidate does not give it, or missing,
// from an answer that shows all its calls, for the count it does.
import { participantsOf, type SeenCall } from '../checks/calls-in.ts';
import { UNENDED_STATUSES } from '../checks/settling.ts';
import { PARTICIPANTS_FILTER_READINGS, participantsFilterCount, type ParticipantsFilterReading } from '../checks/readings.ts';
import { shown } from '../checks/violation.ts';
import { openDetection, ruleOut, type Detection } from './detection.ts';
import type { ListingApi } from './listing-api.ts';
import { pinnedAnswer, pinsOf } from './pinned-probe.ts';

/** Calls probed: each asks as many lists as the candidates give it counts (two to four). */
const PROBED_CALLS = 3;

interface Probe {
  seen: SeenCall;
  /** A user who joined the call: the pin that keeps each answer small. */
  uid: string;
  /** Each count the candidates give the call, with the candidates that give it. */
  counts: Map<number, ParticipantsFilterReading[]>;
}

function countsOf(seen: SeenCall): Map<number, ParticipantsFilterReading[]> {
  const counts = new Map<number, ParticipantsFilterReading[]>();
  for (const reading of PARTICIPANTS_FILTER_READINGS) {
    const count = participantsFilterCount(seen.call, reading);
    if (count !== undefined) counts.set(count, [...(counts.get(count) ?? []), reading]);
  }
  return counts;
}

/** Calls whose counts tell candidates apart, settled ones first, the most telling first among them. */
function telling(calls: readonly SeenCall[]): Probe[] {
  const probes: Probe[] = [];
  for (const seen of calls) {
    const counts = countsOf(seen);
    const uid = participantsOf(seen.call).find((entry) => entry.isJoined === true && typeof entry.uid === 'string')?.uid;
    if (counts.size > 1 && typeof uid === 'string') probes.push({ seen, uid, counts });
  }
  // Calls that have not ended may still change, and with them their entries: probed last.
  const unsettled = (probe: Probe) => (UNENDED_STATUSES.has(String(probe.seen.call.status)) ? 1 : 0);
  return probes.sort((a, b) => unsettled(a) - unsettled(b) || b.counts.size - a.counts.size).slice(0, PROBED_CALLS);
}

export async function detectParticipantsFilter(api: ListingApi, calls: readonly SeenCall[]): Promise<Detection<ParticipantsFilterReading>> {
  const detection = openDetection('participants-count-filter', PARTICIPANTS_FILTER_READINGS);
  const probes = telling(calls);
  const asked = probes.flatMap((probe) => [...probe.counts.keys()].map((count) => ({ probe, count })));
  const answers = await Promise.all(
    asked.map(({ probe, count }) => api.listCalls({ participantsCount: count, uid: probe.uid, ...pinsOf(probe.seen) })),
  );
  let judged = 0;
  for (const [index, { probe, count }] of asked.entries()) {
    const exchange = answers[index]!;
    detection.exchanges.push(exchange);
    const answer = pinnedAnswer(exchange, probe.seen);
    if (!answer) continue;
    const { returned, total, call } = answer;
    judged += 1;
    for (const reading of PARTICIPANTS_FILTER_READINGS) {
      if ((participantsFilterCount(call, reading) === count) === returned) continue;
      const reason = returned
        ? `participantsCount=${count} returned call ${shown(call.sessionId)}, which has ${participantsFilterCount(call, reading)} counted as ${reading}`
        : `participantsCount=${count} did not return call ${shown(call.sessionId)}, which has ${count} counted as ${reading}, among the ${total} calls it answered`;
      ruleOut(detection, reading, reason, exchange);
    }
  }
  // With no candidate left the filter fails its requirement under any of them.
  detection.accepted = detection.survivors.length > 0 ? [...detection.survivors] : [...PARTICIPANTS_FILTER_READINGS];
  detection.evidence =
    probes.length === 0
      ? 'no sampled call has a never-joined entry or a user on several devices, where the counts differ'
      : `${judged} of ${asked.length} probes on ${probes.length} calls answered completely`;
  return detection;
}
