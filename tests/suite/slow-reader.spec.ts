// A slow reader of a busy, living staging: the clean reference living, its clock running ten times
// real time, and every request taken up after a hold of its own, so that requests sent together are
// answered seconds apart on the target's clock, in any order, and every comparison of two answers
// straddles new calls, calls answered and calls ended. The suite must find it CONFORMANT with no
// warning, however the holds fall: a comparison that movement could explain is judged only on what
// cannot have moved between its answers (moving-data.ts), or left unjudged and said so.
// Before, one example's comparison could be judged on another example's answer to the same list,
// taken at another moment (rehearsal.ts): a call "missing" from a list asked before it was logged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { DATA_NOW } from '../../reference/data/directory.ts';
import { HEAD_START_SECONDS } from '../../reference/live/living-calls.ts';
import { createRandom } from '../../reference/data/random.ts';
import { referenceTargetEnv } from '../runner/run-suite.ts';
import { freshDir, readReports, runConformance, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';

test.setTimeout(SUITE_RUN_TIMEOUT_MS);

/** Seconds of the target's clock to a second of real time. */
const PACE = 10;
/** The longest a request waits before the target takes it up: four seconds of its clock. */
const HOLD_MS = 400;

/** The clean reference living at `rate` new calls a second, read slowly (see above); the holds drawn from `seed`. */
async function slowLivingReference(rate: number, seed: number) {
  const started = performance.now();
  const reference = createServer({
    seed: 11,
    live: { rate, clock: () => DATA_NOW + HEAD_START_SECONDS + Math.floor(((performance.now() - started) / 1000) * PACE) },
  });
  const holds = createRandom(seed);
  const answer = reference.server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  reference.server.removeAllListeners('request');
  reference.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    setTimeout(() => answer.forEach((listener) => listener.call(reference.server, request, response)), holds.next() * HOLD_MS);
  });
  return { base: await reference.listen(0), close: () => reference.close() };
}

for (const rate of [1, 0.2]) {
  test(`the clean reference living at ${rate} new calls a second, read slowly (its clock at ${PACE} times real time, each request held up to ${HOLD_MS} ms): CONFORMANT with no warning, comparisons on moving ground judged`, async () => {
    const target = await slowLivingReference(rate, 7);
    try {
      const reports = freshDir('report-slow-reader');
      const run = await runConformance(reports, [], { ...referenceTargetEnv(target.base), CONFORMANCE_SEED: '424242' });
      const { results } = readReports(reports);
      expect(
        results.failures.map((failure) => failure.message.slice(0, 2000)),
        run.stdout.slice(-2000),
      ).toEqual([]);
      expect(results.verdict).toBe('CONFORMANT');
      expect(run.code).toBe(0);
      expect(results.requirements.filter((requirement) => requirement.warnings.length > 0).map((requirement) => requirement.id)).toEqual(
        [],
      );
      // The comparisons that cannot be pinned to settled history (calls ringing or ongoing) were made.
      const narrowing = results.requirements.find((requirement) => requirement.id === 'CALLS-LIST-AND-NARROWING')!;
      const moving = Number(/(\d+) on moving ground/.exec(narrowing.observations.join(' '))?.[1]);
      expect(moving, narrowing.observations.join('\n')).toBeGreaterThan(0);
    } finally {
      await target.close();
    }
  });
}
