import { test, requirement } from '../../fixtures/index.ts';
import { successStatus } from '../../core/checks/errors.ts';
import { ENUMS } from '../../core/arbitraries/call-filters.ts';
import type { Query } from '../../core/transport/api.ts';

test(
  'CALLS-LIST-OK GET /calls answers 200 with a pagination envelope of calls that matches the contract',
  requirement('CALLS-LIST-OK'),
  async ({ api, verdict, learnedViolations }) => {
    const exchange = await api.listCalls();

    // The lists fetched to learn the target are judged here, by every check; each requirement's own
    // test judges them again for that requirement alone.
    verdict.enforce([...successStatus(exchange, 'CALLS-LIST-OK', 'GET /calls', 200), ...learnedViolations]);
  },
);

test(
  'CALLS-LIST-FILTER-VALUES-ACCEPTED every value the specification allows for a filter is answered 200',
  requirement('CALLS-LIST-FILTER-VALUES-ACCEPTED'),
  async ({ api, verdict, targetSample }) => {
    const queries: Query[] = [
      ...Object.entries(ENUMS).flatMap(([name, values]) => values.map((value) => ({ [name]: value }))),
      { hasRecording: true },
      { hasRecording: false },
      { participantsCount: targetSample.values.participantsCounts[0] ?? 2 },
      { startedAt: targetSample.values.startedAts[0] ?? 1_735_689_600 },
      { endedAt: targetSample.values.endedAts[0] ?? 1_735_689_600 },
      { uid: targetSample.values.uids[0] ?? 'user' },
    ];
    const exchanges = await Promise.all(queries.map((query) => api.listCalls(query)));
    for (const [index, query] of queries.entries()) {
      const exchange = exchanges[index]!;
      verdict.record(
        successStatus(
          exchange,
          'CALLS-LIST-FILTER-VALUES-ACCEPTED',
          `GET /calls?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
          200,
        ),
      );
    }
    verdict.enforce();
  },
);
