import fc from 'fast-check';
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { describeFilters, filterQuery, onBehalfOfScope } from '../../core/checks/filters.ts';
import { listAnswered } from '../../core/checks/errors.ts';
import { filterCombination } from '../../core/arbitraries/call-filters.ts';
import { travelsInAHeader } from '../../core/transport/header-value.ts';

test(
  'CALLS-LIST-ON-BEHALF-OF for any user seen in the data, with or without filters, every call listed on their behalf is one they took part in',
  requirement('CALLS-LIST-ON-BEHALF-OF'),
  async ({ api, verdict, property, targetSample, readings }) => {
    sampledCalls(targetSample);
    test.skip(targetSample.values.uids.length === 0, 'No participant uid was seen in the data.');
    const uids = targetSample.values.uids.filter(travelsInAHeader);
    test.skip(
      uids.length === 0,
      'Every participant uid seen holds a character no header can carry (a control character, or one beyond Latin-1).',
    );
    const arbitrary = fc.record({
      uid: fc.constantFrom(...uids),
      filters: fc.option(filterCombination(targetSample, readings), { nil: undefined }),
    });

    await property(arbitrary, async ({ uid, filters }) => {
      const exchange = await api.listCalls(filterQuery(filters ?? {}), { onBehalfOf: uid });
      // Refused with filters, the filters may be what was refused (theirs to answer for); without,
      // the scope is, and the refusal is this requirement's.
      const what = `GET /calls?${describeFilters(filters ?? {})} with onBehalfOf ${uid}`;
      verdict.enforce([
        ...listAnswered(exchange, what, filters ? 'CALLS-LIST-FILTER-VALUES-ACCEPTED' : 'CALLS-LIST-ON-BEHALF-OF'),
        ...onBehalfOfScope(exchange, callsIn(exchange), uid),
      ]);
    });
  },
);
