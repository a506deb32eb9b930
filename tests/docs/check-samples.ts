// One sample failure per check label, for docs/checks.md: the check function that makes the label,
// and made-up inputs it fails on. The page's generator (checks-doc.ts) calls each and shows the
// failure line the check really writes, so the page cannot show a wording the code no longer has;
// a label without a sample, or a sample that does not fail with its label, stops the generator.
import type { Violation } from '../../core/checks/violation.ts';
import type { CallObject } from '../../core/checks/calls-in.ts';
import { OPEN_READINGS } from '../../core/checks/readings.ts';
import { andNarrowingSubset, andNarrowingTotal } from '../../core/checks/narrowing.ts';
import {
  callDurationIsAudioPlusVideo,
  callMinutesSumOverParticipants,
  minutesNotNegative,
  participantDurationIsAudioPlusVideo,
} from '../../core/checks/invariants/minutes.ts';
import { callTotalDurationIsItsDuration } from '../../core/checks/invariants/timer.ts';
import { contentType } from '../../core/checks/content-type.ts';
import {
  endedNotBeforeStarted,
  joinedWithinCall,
  leftNotBeforeJoined,
  startedNotBeforeInitiated,
} from '../../core/checks/invariants/timestamps.ts';
import { errorCode, errorStatus, noServerError, successStatus } from '../../core/checks/errors.ts';
import { filterCompleteness, searched } from '../../core/checks/filter-completeness.ts';
import { filterNarrowing, getOnBehalfOfScope, onBehalfOfScope, valueTotalsPartition } from '../../core/checks/filters.ts';
import { fullAccessRequired } from '../../core/checks/full-access.ts';
import { deployedGetCallEnvelope, getCallEnvelopeConsistency } from '../../core/checks/get-call-envelope.ts';
import { getCallIdentity, getMatchesList } from '../../core/checks/get-matches-list.ts';
import { getCallShownId } from '../../passive/exchange-rules.ts';
import { jsonBody } from '../../core/checks/json-body.ts';
import { midOnStartedCalls } from '../../core/checks/invariants/media-id.ts';
import {
  multiDeviceDistinctDevices,
  neverJoinedShape,
  participantsAtMost50,
  totalParticipantsCountsEntries,
} from '../../core/checks/invariants/participants.ts';
import { pageParameters } from '../../core/checks/page-parameters.ts';
import { pagesPartition } from '../../core/checks/pages-partition.ts';
import {
  countAcrossPages,
  pagesHoldTotal,
  pagesOverlap,
  totalAcrossPages,
  totalPagesAcrossPages,
  type ListedPage,
} from '../../core/checks/listing-pages.ts';
import { paginationConsistency } from '../../core/checks/pagination.ts';
import { openDetection, ruleOut } from '../../core/learning/detection.ts';
import { readingDetection } from '../../core/learning/detection.ts';
import { PAGE_SELECTIONS } from '../../core/learning/paging.ts';
import { recordingEndNotBeforeStart, recordingFields, recordingMeansHasRecording } from '../../core/checks/invariants/recordings.ts';
import { repeatableRead } from '../../core/checks/repeatable-read.ts';
import { responseSchemaConformance } from '../../core/checks/response-schema.ts';
import { sessionIdUnique } from '../../core/checks/session-ids.ts';
import { usableListPage } from '../../core/learning/list-blocker.ts';
import { loadContract } from '../../openapi/contract.ts';
import {
  checkContext,
  exchange,
  joinedParticipant,
  listedCall,
  listPage,
  neverJoinedParticipant,
  recording,
  seen,
  textExchange,
} from '../checks/exchanges.ts';

/** A check called on its sample: the function (named as the page names the label's maker) and the call. */
export interface CheckSample {
  check: { name: string };
  run: () => Violation[];
}

/** `check` with `args`, typed as the check takes them. */
function sample<A extends unknown[]>(check: (...args: A) => Violation | Violation[], ...args: A): CheckSample {
  return { check, run: () => [check(...args)].flat() };
}

/** Page `page` of a recorded listing holding `ids`, its total and total_pages as given. */
const walked = (page: number, ids: string[], total: number, totalPages: number): ListedPage => ({
  page,
  ids,
  total,
  totalPages,
  exchange: listPage(ids, { total, total_pages: totalPages, current_page: page }),
});

/** A one-to-one call between ana and ben, as a List Calls page shows it, with `fields` changed. */
const aCall = (fields: Record<string, unknown> = {}): CallObject => ({
  ...listedCall(),
  sessionId: 'call-1',
  initiator: 'ana',
  receiver: 'ben',
  participants: [
    { ...joinedParticipant(), uid: 'ana', deviceId: 'phone-1' },
    { ...neverJoinedParticipant(), uid: 'ben' },
  ],
  ...fields,
});
const STARTED = Number(listedCall().startedAt);
const ana = (fields: Record<string, unknown>) => ({ ...joinedParticipant(), uid: 'ana', deviceId: 'phone-1', ...fields });
/** Get Call of call-1 answering `body`. */
const getCallOne = (status: number, body: unknown) => {
  const made = exchange('getCall', status, body);
  return { ...made, request: { ...made.request, url: 'http://127.0.0.1:8080/v3/calls/call-1' } };
};
const notFound = getCallOne(404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND' } });
const pagingWith = (sizeName: string) => {
  const detection = openDetection('page-selection', PAGE_SELECTIONS);
  detection.exchanges.push(listPage(['call-1'], {}, { page: 2, [sizeName]: 1 }));
  return { page: true, perPage: true, sizeName, evidence: `page and ${sizeName} moved the answer`, detection };
};
const ruledOutEverywhere = () => {
  const detection = openDetection('call-minutes', ['sum-of-entries', 'call-span']);
  ruleOut(detection, 'sum-of-entries', 'call call-1 has 9 minutes, its entries 1');
  ruleOut(detection, 'call-span', 'call call-1 has 9 minutes, its span 1');
  return detection;
};

export const CHECK_SAMPLES: Readonly<Record<string, CheckSample>> = {
  and_narrowing_subset: sample(
    andNarrowingSubset,
    listPage(['call-1', 'call-2']),
    { type: 'audio', status: 'ended' },
    listPage(['call-1']),
    'type',
  ),
  and_narrowing_total: sample(
    andNarrowingTotal,
    listPage(['call-1', 'call-2']),
    { type: 'audio', status: 'ended' },
    listPage(['call-1']),
    'type',
  ),
  call_duration_is_audio_plus_video: sample(callDurationIsAudioPlusVideo, seen(aCall({ totalDurationInMinutes: 5 }))),
  call_minutes_sum_over_participants: sample(callMinutesSumOverParticipants, seen(aCall({ totalVideoMinutes: 2 })), {
    readings: { ...OPEN_READINGS, minutes: ['sum-of-entries'] },
  }),
  call_total_duration_is_its_duration: sample(callTotalDurationIsItsDuration, seen(aCall({ totalDuration: '00:19:00' })), {
    readings: { ...OPEN_READINGS, timer: ['call-span', 'call-minutes'] },
    clock: STARTED + 3600,
  }),
  content_type: sample(contentType, textExchange('markGroupConversationAsUnread', 200, '{"data":{"success":true}}', 'text/plain')),
  ended_not_before_started: sample(endedNotBeforeStarted, seen(aCall({ endedAt: STARTED - 10 }))),
  error_code: sample(
    errorCode,
    exchange('getCall', 404, { error: { code: 'ERR_MADE_UP' } }),
    'ERR_CALL_SESSION_NOT_FOUND',
    'CALLS-GET-NOT-FOUND',
  ),
  error_status: sample(errorStatus, { ...notFound, response: { ...notFound.response, status: 400 } }, 'ERR_CALL_SESSION_NOT_FOUND'),
  filter_completeness: sample(
    filterCompleteness,
    seen(aCall()),
    { call: aCall() },
    searched({ type: 'audio' }, [listPage(['call-2'])], 'call-1'),
    OPEN_READINGS,
  ),
  filter_narrowing: sample(filterNarrowing, listPage(['call-1']), [seen(aCall({ type: 'video' }))], { type: 'audio' }, OPEN_READINGS),
  full_access_required: sample(fullAccessRequired, exchange('markGroupConversationAsUnread', 200, { data: { success: true } })),
  get_call_envelope: sample(deployedGetCallEnvelope, exchange('getCall', 200, aCall())),
  get_call_envelope_consistency: sample(getCallEnvelopeConsistency, exchange('getCall', 200, aCall()), {
    readings: { ...OPEN_READINGS, getCallEnvelope: ['data-object'] },
  }),
  get_call_identity: sample(getCallIdentity, exchange('getCall', 200, { data: aCall({ sessionId: 'call-2' }) }), 'call-1', 'CALLS-GET-OK'),
  get_call_shown_id: sample(getCallShownId, notFound, 'call-1', { source: 'made-up.har entry 3' }),
  get_matches_list: sample(getMatchesList, seen(aCall()), seen(aCall({ type: 'video' }), 'getCall'), {
    path: '/type',
    earlier: 'audio',
    later: 'video',
  }),
  get_on_behalf_of_scope: sample(getOnBehalfOfScope, exchange('getCall', 200, { data: aCall() }), [seen(aCall(), 'getCall')], 'zoe'),
  joined_within_call: sample(joinedWithinCall, seen(aCall({ participants: [ana({ joinedAt: STARTED - 600 })] }))),
  json_body: sample(jsonBody, textExchange('listCalls', 200, '<html>made up</html>')),
  left_not_before_joined: sample(leftNotBeforeJoined, seen(aCall({ participants: [ana({ leftAt: STARTED - 1 })] }))),
  mid_on_started_calls: sample(midOnStartedCalls, seen(aCall({ mid: undefined }))),
  minutes_not_negative: sample(minutesNotNegative, seen(aCall({ totalVideoMinutes: -1 }))),
  multi_device_distinct_devices: sample(multiDeviceDistinctDevices, seen(aCall({ participants: [ana({}), ana({})] }))),
  never_joined_shape: sample(
    neverJoinedShape,
    seen(aCall({ participants: [{ ...neverJoinedParticipant(), uid: 'ben', deviceId: 'phone-2' }] })),
  ),
  no_server_error: sample(noServerError, exchange('listCalls', 500, { error: 'made up' }), 'List Calls with type=audio'),
  on_behalf_of_scope: sample(onBehalfOfScope, listPage(['call-1']), [seen(aCall())], 'zoe'),
  page_parameters: sample(pageParameters, pagingWith('limit')),
  pages_overlap: sample(pagesOverlap, [walked(1, ['call-1', 'call-2'], 4, 2), walked(2, ['call-2', 'call-3'], 4, 2)]),
  total_across_pages: sample(totalAcrossPages, [walked(1, ['call-1', 'call-2'], 4, 2), walked(2, ['call-3', 'call-4'], 5, 3)]),
  total_pages_across_pages: sample(totalPagesAcrossPages, [walked(1, ['call-1', 'call-2'], 4, 2), walked(2, ['call-3', 'call-4'], 4, 3)]),
  pages_hold_total: sample(pagesHoldTotal, [walked(1, ['call-1', 'call-2'], 3, 2), walked(2, ['call-3', 'call-4'], 3, 2)], 2),
  count_across_pages: sample(countAcrossPages, [walked(1, ['call-1'], 4, 2), walked(2, ['call-3', 'call-4'], 4, 2)], 2),
  pages_partition: sample(pagesPartition, [listPage(['call-1']), listPage(['call-1'])], listPage(['call-1', 'call-2']), {
    perPage: 1,
    pages: 2,
    block: 1,
  }),
  pagination_consistency: sample(paginationConsistency, listPage(['call-1'], { count: 2 })),
  participant_duration_is_audio_plus_video: sample(
    participantDurationIsAudioPlusVideo,
    seen(aCall({ participants: [ana({ totalDuration: 5 })] })),
  ),
  participants_at_most_50: sample(
    participantsAtMost50,
    seen(aCall({ participants: Array.from({ length: 51 }, (_, index) => ({ ...neverJoinedParticipant(), uid: `user-${index}` })) })),
  ),
  reading_detection: sample(readingDetection, ruledOutEverywhere(), 'CALL-MINUTES-SUM-OVER-PARTICIPANTS', "the calls' minutes"),
  recording_end_not_before_start: sample(
    recordingEndNotBeforeStart,
    seen(aCall({ hasRecording: true, recordings: [{ ...recording(), endTime: Number(recording().startTime) - 1 }] })),
  ),
  recording_fields: sample(
    recordingFields,
    seen(aCall({ hasRecording: true, recordings: [{ ...recording(), duration: 'long' }] })),
    loadContract(),
  ),
  recording_means_has_recording: sample(recordingMeansHasRecording, seen(aCall({ hasRecording: false, recordings: [recording()] }))),
  repeatable_read: sample(
    repeatableRead,
    getCallOne(200, { data: aCall() }),
    getCallOne(200, { data: aCall({ type: 'video' }) }),
    'status 200, the call of type video',
  ),
  response_schema_conformance: sample(responseSchemaConformance, exchange('listCalls', 200, { data: 'none', meta: {} }), checkContext()),
  session_id_unique: sample(sessionIdUnique, listPage(['call-1', 'call-1'])),
  started_not_before_initiated: sample(startedNotBeforeInitiated, seen(aCall({ initiatedAt: STARTED + 5 }))),
  success_status: sample(
    successStatus,
    exchange('listCalls', 400, { error: { code: 'ERR_MADE_UP' } }),
    'CALLS-LIST-OK',
    'List Calls with type=audio',
  ),
  total_participants_counts_entries: sample(totalParticipantsCountsEntries, seen(aCall({ totalParticipants: 7 })), {
    readings: { ...OPEN_READINGS, participantCount: ['entries'] },
  }),
  usable_list_page: sample(
    usableListPage,
    { requirement: 'CALLS-LIST-OK', saw: 'GET /calls answered status 503', exchange: exchange('listCalls', 503, {}) },
    [],
  ),
  value_totals_partition: sample(valueTotalsPartition, 'type', listPage(['call-1', 'call-2', 'call-3']), [
    { value: 'audio', exchange: listPage(['call-1']) },
    { value: 'video', exchange: listPage(['call-2']) },
  ]),
};
