// MAX_RPS among the workers: whole-number shares that add up to the rate, and each start admitted
// against the last second's, so that no second holds more starts than MAX_RPS, even when every worker
// starts at the same moment (as they do when a hold of the run ends) and their waits oversleep.
import { test, expect } from '@playwright/test';
import { Pacer, rateShare } from '../../core/transport/rate-limit.ts';
import { busiestSecond } from './busiest-second.ts';

/**
 * Every start of pacers at the given rates, each sending back to back from 0 ms for `ms`, on a clock
 * of its own whose every wait oversleeps by up to `oversleepMs` (a busy machine's timers); with
 * `admitted`, each start is admitted as the transport admits it, right before it goes on the wire.
 */
async function startsOf(rates: readonly number[], ms: number, { admitted = true, oversleepMs = 0 } = {}): Promise<number[]> {
  const all: number[] = [];
  for (const [index, rate] of rates.entries()) {
    let now = 0;
    let turn = index;
    // Deterministic oversleep: 0, 1/3, 2/3 of the most, in turn.
    const sleep = async (wait: number) => void (now += wait + ((turn += 1) % 3) * (oversleepMs / 3));
    const pacer = new Pacer(rate, () => now);
    for (;;) {
      const delay = pacer.delayBeforeRequest();
      if (delay > 0) await sleep(delay);
      if (admitted) await pacer.admit(sleep);
      if (now >= ms) break;
      // Each goes on the wire the moment it is admitted.
      if (admitted) pacer.sent(now);
      all.push(now);
    }
  }
  return all;
}

test("the workers' shares of MAX_RPS are whole numbers adding up to it; a rate below one a worker is split evenly", () => {
  expect([0, 1, 2, 3].map((index) => rateShare(90, 4, index))).toEqual([23, 23, 22, 22]);
  for (const rate of [4, 7, 10, 90, 90.5, 1000]) {
    for (let workers = 1; workers <= 4; workers += 1) {
      const shares = Array.from({ length: workers }, (_, index) => rateShare(rate, workers, index));
      expect(
        shares.reduce((sum, share) => sum + share, 0),
        `${rate} over ${workers}`,
      ).toBe(Math.floor(rate));
      expect(shares.every(Number.isInteger)).toBe(true);
    }
  }
  expect(rateShare(2, 4, 3)).toBe(0.5);
  expect(rateShare(2.5, 1, 0)).toBe(2);
});

test('workers that start together never pass MAX_RPS in any second, even when their waits oversleep', async () => {
  for (const [rate, workers] of [
    [90, 4],
    [100, 3],
    [7, 2],
    [45, 4],
  ] as const) {
    const shares = Array.from({ length: workers }, (_, index) => rateShare(rate, workers, index));
    expect(busiestSecond(await startsOf(shares, 5_000)), `${rate} over ${workers}`).toBeLessThanOrEqual(rate);
    expect(busiestSecond(await startsOf(shares, 5_000, { oversleepMs: 30 })), `${rate} over ${workers}, oversleeping`).toBeLessThanOrEqual(
      rate,
    );
  }
  // What the pacers were before: planned spacing alone lets even whole-number shares crowd a second
  // when waits oversleep, and fractional shares crowd one even when they do not.
  expect(busiestSecond(await startsOf([23, 23, 22, 22], 5_000, { admitted: false, oversleepMs: 30 }))).toBeGreaterThan(90);
  expect(busiestSecond(await startsOf([22.5, 22.5, 22.5, 22.5], 5_000, { admitted: false }))).toBe(92);
});

test('a rate below one start a second admits one start per interval', async () => {
  const starts = await startsOf([0.5], 10_000);
  expect(starts).toEqual([0, 2000, 4000, 6000, 8000]);
});

/**
 * The starts the run's keeper grants at `rate` a second to workers always asking, on a clock of its
 * own, each sent `lateBy(grantedAt)` ms after its grant (a worker busy when the grant came), and told
 * to the keeper as sent at `countedAt`: when it went on the wire, or (what the keeper used to count)
 * when it was granted. When each went on the wire, as the target counts them.
 */
function sentThroughKeeper(rate: number, ms: number, lateBy: (grantedAt: number) => number, countedAt: 'sent' | 'granted'): number[] {
  let now = 0;
  const pacer = new Pacer(rate, () => now);
  let granted: Array<{ at: number; sendsAt: number }> = [];
  const sent: number[] = [];
  for (; now < ms; now += 1) {
    for (const start of granted.filter(({ sendsAt }) => sendsAt <= now)) {
      sent.push(now);
      pacer.sent(countedAt === 'sent' ? now : start.at);
    }
    granted = granted.filter(({ sendsAt }) => sendsAt > now);
    while (pacer.waitBeforeStart(now) === 0) granted.push({ at: now, sendsAt: now + lateBy(now) });
  }
  return sent;
}

test('the keeper counts a start from when its worker sent it, not from its grant: grants read late by busy workers never crowd a second', () => {
  // Grants made in the first 600 ms of every 1.5 s are sent 150 ms late, the others at once.
  const lateBy = (grantedAt: number) => (grantedAt % 1_500 < 600 ? 150 : 0);
  const counted = sentThroughKeeper(90, 8_000, lateBy, 'sent');
  // Fewer than counted from the grant (644): a start not yet sent holds its place in every window.
  expect(counted.length).toBeGreaterThan(8 * 70);
  expect(busiestSecond(counted)).toBeLessThanOrEqual(90);
  // Counted from the grant, the late ones join the prompt ones of the next second.
  expect(busiestSecond(sentThroughKeeper(90, 8_000, lateBy, 'granted'))).toBeGreaterThan(90);
});

test('a granted start holds the window until it is said to be sent, and one never sent counts from when its worker went away', () => {
  let now = 0;
  const pacer = new Pacer(1, () => now);
  expect(pacer.waitBeforeStart(0)).toBe(0);
  // Not yet said: it may go on the wire at any moment, so it counts as now, however long that is.
  expect(pacer.waitBeforeStart((now = 3_000))).toBeGreaterThan(0);
  pacer.sent(2_900);
  expect(pacer.waitBeforeStart((now = 3_999))).toBe(1);
  expect(pacer.waitBeforeStart((now = 4_000))).toBe(0);
  // Granted at 4 s, its worker gone at 4.5 s without a word: counted from 4.5 s.
  pacer.neverSent(1, (now = 4_500));
  expect(pacer.waitBeforeStart((now = 5_599))).toBe(1);
  expect(pacer.waitBeforeStart((now = 5_600))).toBe(0);
});
