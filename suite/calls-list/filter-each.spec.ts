// One property per filter: for any value of it, every call returned matches it. For the
// enumerated filters, also: the totals of all values add up to the unfiltered total.
import { test, requirement, sampledCalls, blockedByLists } from '../../fixtures/index.ts';
import { callsIn, listed } from '../../core/checks/calls-in.ts';
import { FILTER_NAMES, FILTER_REQUIREMENTS, filterNarrowing, valueTotalsPartition, type Filters } from '../../core/checks/filters.ts';
import { PROBED_FILTERS, readingDetection } from '../../core/learning/detection.ts';
import { judgeStill, MovementTally, reportMovement } from '../../core/checks/moving-data.ts';
import { listAnswered } from '../../core/checks/errors.ts';
import { ENUMS, filterValue } from '../../core/arbitraries/call-filters.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

const SENTENCES: Record<(typeof FILTER_NAMES)[number], string> = {
  type: 'for any type, every returned call has that type',
  mode: 'for any mode, every returned call has that mode',
  status: 'for any status, every returned call has that status',
  receiverType: 'for any receiverType, every returned call has that receiver type',
  participantsCount:
    'for any participantsCount, every returned call has exactly that many participants, counted as the target counts them (entries or people, every one or the joined)',
  startedAt: 'for any startedAt, every returned call is consistent with the meaning of the filter the target follows (exact or a bound)',
  endedAt: 'for any endedAt, every returned call is consistent with the meaning of the filter the target follows (exact or a bound)',
  hasRecording: 'for any hasRecording, every returned call has that hasRecording',
  uid: 'for any uid seen in the data, every returned call is one in which that uid took part, under the reading of "took part" the target follows',
};

for (const name of FILTER_NAMES) {
  const id = FILTER_REQUIREMENTS[name];
  test(`${id} ${SENTENCES[name]}`, requirement(id), async ({ api, verdict, property, targetSample, readings, learned }) => {
    sampledCalls(targetSample);
    // Where the suite probed what the filter means (the date filters, who took part for uid, what
    // participantsCount counts), a
    // target consistent with no reading of it fails here, with the answers that ruled each out.
    const probed = learned.detections.find((detection) => PROBED_FILTERS[detection.subject] === name);
    if (probed) verdict.enforce(readingDetection(probed, id, `the ${name} filter`));

    let judged = 0;
    let last: Exchange | undefined;
    await property(filterValue(name, targetSample), async (value) => {
      const filters: Filters = { [name]: value };
      const exchange = await api.listCalls({ [name]: value as string | number | boolean });
      last = exchange;
      if (listed(exchange)) judged += 1;
      verdict.enforce([
        ...listAnswered(exchange, `GET /calls?${name}=${String(value)}`),
        ...filterNarrowing(exchange, callsIn(exchange), filters, readings),
      ]);
    });
    blockedByLists(judged, last);
    test.skip(
      judged === 0,
      `Not judged: no answer to ${name} was a list of calls (each was refused or unusable; CALLS-LIST-FILTER-VALUES-ACCEPTED or CALLS-LIST-OK says why).`,
    );
  });
}

// A filter that lets in calls of another value can hide behind the first page (the newest calls
// may all share a value); totals cannot. Every call has one value, so the totals add up.
const ENUMERATED = { ...ENUMS, hasRecording: [true, false] } as const;

for (const name of Object.keys(ENUMERATED) as Array<keyof typeof ENUMERATED>) {
  const id = FILTER_REQUIREMENTS[name];
  test(
    `${id} the totals of the lists filtered by each value of ${name} add up to the unfiltered total`,
    requirement(id),
    async ({ api, verdict, targetSample, ground, answerAge }) => {
      sampledCalls(targetSample);
      // The unfiltered total moves with every call logged: the lists are read on pinned ground where
      // the target allows it (history that can no longer change, learning/still-ground.ts). Elsewhere
      // they are read together, and a total that moved meanwhile is taken again (moving-data.ts).
      const values = ENUMERATED[name] as ReadonlyArray<string | boolean>;
      const take = async () => {
        const [unfiltered, ...filtered] = await Promise.all([
          api.listCalls(ground.query),
          ...values.map((value) => api.listCalls({ ...ground.query, [name]: value })),
        ]);
        return { answers: [unfiltered, ...filtered], byValue: values.map((value, index) => ({ value, exchange: filtered[index]! })) };
      };
      const tally = new MovementTally();
      const outcome = tally.count(
        await judgeStill(take, ({ answers, byValue }) => valueTotalsPartition(name, answers[0]!, byValue), answerAge),
      );
      verdict.observe(id, `totals compared on ${ground.describe}`);
      reportMovement(verdict, tally, id, test.skip);
      if (outcome.judged) verdict.enforce(outcome.violations);
    },
  );
}
