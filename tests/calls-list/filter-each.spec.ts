// One property per filter: for any value of it, every call returned matches it.
import fc from 'fast-check';
import { judgementOf } from '../../fixtures/date-semantics.ts';
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { callsIn } from '../../fixtures/checks/calls-in.ts';
import { FILTER_NAMES, FILTER_REQUIREMENTS, filterNarrowing, type Filters } from '../../fixtures/checks/filters.ts';
import { succeeds } from '../../fixtures/checks/errors.ts';
import { filterValue } from '../../fixtures/arbitraries/call-filters.ts';
import { describeViolations } from '../../fixtures/verdict.ts';

const SENTENCES: Record<(typeof FILTER_NAMES)[number], string> = {
  type: 'for any type, every returned call has that type',
  mode: 'for any mode, every returned call has that mode',
  status: 'for any status, every returned call has that status',
  receiverType: 'for any receiverType, every returned call has that receiver type',
  participantsCount: 'for any participantsCount, every returned call has exactly that many participant entries',
  startedAt: 'for any startedAt, every returned call is consistent with one meaning of the filter (exact or a bound)',
  endedAt: 'for any endedAt, every returned call is consistent with one meaning of the filter (exact or a bound)',
  hasRecording: 'for any hasRecording, every returned call has that hasRecording',
  uid: 'for any uid seen in the data, every returned call is one in which that uid took part',
};

for (const name of FILTER_NAMES) {
  const id = FILTER_REQUIREMENTS[name];
  test(`${id} ${SENTENCES[name]}`, requirement(id), async ({ api, verdict, property, targetSample, dates }) => {
    sampledCalls(targetSample);
    if (name === 'startedAt' || name === 'endedAt') {
      const detection = dates[name];
      // No meaning fits the target's answers: the filter does not select by date at all.
      if (detection.survivors.length === 0) {
        throw new Error(describeViolations(detection.ruledOut.map(({ semantics, reason, exchange }) => ({
          check: 'date_filter_semantics', requirement: id, title: `${name} is not ${semantics}: ${reason}`,
          expected: `a ${name} consistent with ${semantics}`, received: reason, exchange,
        }))));
      }
    }
    const judgement = judgementOf(dates);

    await property(filterValue(name, targetSample) as fc.Arbitrary<Filters[typeof name]>, async (value) => {
      const filters: Filters = { [name]: value };
      const exchange = await api.listCalls({ [name]: value as string | number | boolean });
      verdict.enforce([...succeeds(exchange, id, `GET /calls?${name}=${String(value)}`, 200), ...filterNarrowing(exchange, callsIn(exchange), filters, judgement)]);
    });
  });
}
