// Everything the suite learns of a target before it judges it, in one place: a sample of its calls,
// whether it selects pages, what its date filters mean, and which reading it follows wherever the
// specification's words allow several. Each is a Detection (detection.ts): candidates, evidence,
// what survived. The checks judge by what each accepts; the reports show them all the same way.
import type { Readings } from '../checks/readings.ts';
import { pageOf } from '../checks/pagination.ts';
import { DEFAULT_SETTLE_SECONDS, targetClock } from '../checks/settling.ts';
import { stillFor } from '../checks/answer-age.ts';
import type { Exchange } from '../transport/exchange.ts';
import { detectCountReading, detectMinutesReading, detectTimerReading } from './call-readings.ts';
import { detectDateSemantics, type DateDetection } from './dates.ts';
import type { Detection } from './detection.ts';
import { detectGetCallEnvelope } from './get-call-envelope.ts';
import type { ListingApi } from './listing-api.ts';
import { detectPaging, type PagingSupport } from './paging.ts';
import { fetchAlone, filterValuesOf, sampleCalls, type TargetSample } from './target-sample.ts';
import { detectTookPart } from './took-part.ts';
import { detectParticipantsFilter } from './participants-filter.ts';

export interface LearnedTarget {
  sample: TargetSample;
  paging: PagingSupport;
  dates: Readonly<{ startedAt: DateDetection; endedAt: DateDetection }>;
  /** What the checks accept, subject by subject. */
  readings: Readings;
  /** Every detection, in the order the reports show them. */
  detections: readonly Detection[];
  /** Every request sent to learn it, in order. */
  exchanges: readonly Exchange[];
}

export interface LearnOptions {
  /** SETTLE_SECONDS; DEFAULT_SETTLE_SECONDS when not given. */
  settleSeconds?: number | undefined;
  /** The page-size names to try (learning/paging.ts), all of them unless the configuration names one. */
  pageSizeNames?: readonly string[] | undefined;
  /** MAX_ANSWER_AGE, in seconds; 0 when not given. */
  maxAnswerAgeSeconds?: number | undefined;
}

export async function learnTarget(api: ListingApi, seed: number, options: LearnOptions = {}): Promise<LearnedTarget> {
  const { settleSeconds = DEFAULT_SETTLE_SECONDS, pageSizeNames, maxAnswerAgeSeconds = 0 } = options;
  const sampled = await sampleCalls(api);
  // A probe rules a reading out when its answer lacks a sampled call. Behind a cache or a replica
  // that answer may show the store as it was up to MAX_ANSWER_AGE before it arrived, before a call
  // that has just changed was in the state sampled: only calls still for longer than that are probed.
  const probed = stillFor(sampled.calls, targetClock(sampled.exchanges), maxAnswerAgeSeconds);
  const total = sampled.firstPage && pageOf(sampled.firstPage)?.pagination.total;
  const minutes = detectMinutesReading(sampled.calls);
  const participantCount = detectCountReading(sampled.calls);
  const timer = detectTimerReading(sampled.calls, settleSeconds);
  // The probes stand on the sample alone, not on each other: they wait on the target together.
  const [fetched, paging, startedAt, endedAt, tookPart, participantsFilter] = await Promise.all([
    fetchAlone(api, sampled.calls),
    detectPaging(api, total, pageSizeNames),
    detectDateSemantics(api, probed, 'startedAt', seed),
    detectDateSemantics(api, probed, 'endedAt', seed),
    detectTookPart(api, probed),
    detectParticipantsFilter(api, probed),
  ]);

  const getCallEnvelope = detectGetCallEnvelope(fetched);
  const readings: Readings = {
    minutes: minutes.accepted,
    participantCount: participantCount.accepted,
    participantsFilter: participantsFilter.accepted,
    tookPart: tookPart.accepted,
    dates: { startedAt: startedAt.accepted, endedAt: endedAt.accepted },
    getCallEnvelope: getCallEnvelope.accepted,
    timer: timer.accepted,
  };
  const detections: Detection[] = [
    minutes,
    participantCount,
    participantsFilter,
    tookPart,
    startedAt,
    endedAt,
    paging.detection,
    getCallEnvelope,
    timer,
  ];
  return {
    sample: { ...sampled, values: filterValuesOf(sampled.calls, readings), fetched },
    paging,
    dates: { startedAt, endedAt },
    readings,
    detections,
    exchanges: [...sampled.exchanges, ...fetched, ...detections.flatMap((detection) => detection.exchanges)],
  };
}
