// Reading changes nothing: the same Get Call, sent again after other reads, answers the same. The
// call read is chosen on ground that cannot move: one settled on evidence (final status, ended
// SETTLE_SECONDS or more before the target's own clock), compared byte for byte. Only where the data
// holds none is a call not yet settled read, compared one way (core/checks/settling.ts): what
// settles late may arrive between the reads, nothing may be lost or change otherwise. The report says
// which ground was used. The comparisons are core/checks/repeatable-read.ts's.
import { test, requirement, fetchableCalls } from '../../fixtures/index.ts';
import { targetClock } from '../../core/checks/settling.ts';
import { groundToRead, sameAnswer, sameButSettling } from '../../core/checks/repeatable-read.ts';

test(
  'CALLS-READ-ONLY listing and fetching calls changes nothing: a settled call reads the same before and after',
  requirement('CALLS-READ-ONLY'),
  async ({ api, verdict, targetSample, suiteConfig }) => {
    const calls = fetchableCalls(targetSample);
    const ground = groundToRead(calls, targetClock(targetSample.exchanges), suiteConfig.settleSeconds);
    test.skip(
      !ground,
      'No call in a final status (ended, unanswered, rejected, canceled) was seen in the data: every call could still move.',
    );
    const { seen, settled } = ground!;
    const sessionId = String(seen.call.sessionId);

    const before = await api.getCall(sessionId);
    // The reads in between only need to happen between the two: together.
    await Promise.all([
      api.listCalls(),
      api.listCalls({ uid: String(seen.call.initiator), status: String(seen.call.status) }),
      api.getCall(sessionId),
    ]);
    const after = await api.getCall(sessionId);

    verdict.observe(
      'CALLS-READ-ONLY',
      settled
        ? `read call ${sessionId}, settled on evidence (ended ${suiteConfig.settleSeconds} s or more before the newest moment the data showed): compared byte for byte`
        : `no call in the sample had settled on evidence, so call ${sessionId} (${String(seen.call.status)}) was compared one way: what settles late may arrive between the reads`,
    );
    verdict.enforce(settled ? sameAnswer(before, after) : sameButSettling(before, after));
  },
);
