// MAX_IN_FLIGHT: the workers' shares make up the run's bound exactly, a share never lets more than
// its slots onto the wire, and a hold the target asked for reaches every worker of the run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { InFlightLimit, workerShare } from '../../core/transport/in-flight.ts';
import { RunState } from '../../core/transport/run-state.ts';
import { tooManyWorkers } from '../../core/run/preflight.ts';
import { defaultWorkers, REMOTE_WORKERS } from '../../core/run/budget-plan.ts';
import { loadConfig } from '../../core/run/config.ts';

test("the workers' shares of MAX_IN_FLIGHT add up to it exactly, each at least one", () => {
  for (const bound of [1, 2, 7, 8, 9, 64]) {
    for (let workers = 1; workers <= bound; workers += 1) {
      const shares = Array.from({ length: workers }, (_, index) => workerShare(bound, workers, index));
      expect(
        shares.reduce((sum, share) => sum + share, 0),
        `${bound} over ${workers} workers`,
      ).toBe(bound);
      expect(Math.min(...shares)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
  }
});

test('more workers than MAX_IN_FLIGHT is refused in one line naming it; the default workers never pass it', () => {
  expect(tooManyWorkers({ maxInFlight: 4 }, 4)).toBeUndefined();
  expect(tooManyWorkers({ maxInFlight: 2 }, 3)).toMatch(/^MAX_IN_FLIGHT 2 is fewer than the 3 workers.*--workers\.$/);
  const remote = loadConfig({ CALLS_BASE_URL: 'http://127.0.0.1:9/v3', CHAT_BASE_URL: 'http://127.0.0.1:9/v3', API_KEY: 'k' });
  expect(defaultWorkers(remote)).toBe(REMOTE_WORKERS);
  expect(defaultWorkers({ ...remote, maxInFlight: 1 })).toBe(1);
  expect(defaultWorkers(loadConfig({ MAX_IN_FLIGHT: '1' }))).toBe(1);
});

test('a limit lets at most its slots run at once, uses all of them when there is work, and serves the rest in order', async () => {
  const limit = new InFlightLimit(3);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const work = (index: number) =>
    limit.run(async () => {
      started.push(index);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resume) => setTimeout(resume, 5));
      running -= 1;
      if (index === 4) throw new Error('a failed request frees its slot too');
      return index;
    });
  const results = await Promise.allSettled(Array.from({ length: 12 }, (_, index) => work(index)));
  expect(most).toBe(3);
  expect(limit.mostHeld()).toBe(3);
  expect(started).toEqual([...Array(12).keys()]);
  expect(results.filter((result) => result.status === 'rejected')).toHaveLength(1);
  // Every slot is free again: three more start at once.
  await Promise.all([work(20), work(21), work(22)]);
  expect(running).toBe(0);
});

test('a hold one worker meets (a 429, a window with nothing left) holds the other workers of the run too', () => {
  const folder = mkdtempSync(join(tmpdir(), 'run-state-'));
  try {
    const first = new RunState(folder, undefined);
    const second = new RunState(folder, undefined);
    const now = Date.now();
    expect(second.heldForMs(now)).toBe(0);
    first.holdFor(2_000, now);
    expect(second.heldForMs(now)).toBe(2_000);
    // A shorter hold never shortens a longer one.
    second.holdFor(500, now);
    expect(first.heldForMs(now)).toBe(2_000);
    expect(first.heldForMs(now + 2_500)).toBe(0);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
