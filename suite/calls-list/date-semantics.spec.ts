import { test, requirement, sampledCalls } from '../../fixtures/index.ts';

test(
  'CALLS-LIST-DATE-FILTER-SEMANTICS reports whether startedAt and endedAt match exactly or act as bounds',
  requirement('CALLS-LIST-DATE-FILTER-SEMANTICS'),
  async ({ verdict, targetSample, dates }) => {
    sampledCalls(targetSample);
    for (const detection of [dates.startedAt, dates.endedAt]) {
      const meaning =
        detection.survivors.length === 0
          ? `consistent with none of ${detection.candidates.join(', ')}`
          : `consistent with ${detection.survivors.join(' or ')}`;
      verdict.observe('CALLS-LIST-DATE-FILTER-SEMANTICS', `${detection.field}: ${meaning} (${detection.evidence})`);
    }
  },
);
