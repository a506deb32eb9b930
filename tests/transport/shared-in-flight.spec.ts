// The run's MAX_IN_FLIGHT slots, kept by the runner and shared by the workers: over a real Unix
// socket, as a run uses them. The workers together never pass the bound, one worker alone can use
// every slot, a worker that goes away gives back what it held, and one that loses the keeper goes on
// with its static share instead of waiting forever. Under MAX_RPS the keeper paces every start of the
// run, so that a worker started again after a failure does not pace afresh.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { InFlightLimit, type InFlight } from '../../core/transport/in-flight.ts';
import { Pacer, pacedInFlight } from '../../core/transport/rate-limit.ts';
import { busiestSecond } from './busiest-second.ts';
import { SharedInFlight, slotKeeperPath, startSlotKeeper, type SlotKeeper } from '../../core/transport/shared-in-flight.ts';

const pause = (ms: number) => new Promise((resume) => setTimeout(resume, ms));

async function keeperOf(
  slots: number,
  pacer?: Pacer,
): Promise<{ keeper: SlotKeeper; worker(): Promise<SharedInFlight>; close(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), 'slots-'));
  const keeper = await startSlotKeeper(slotKeeperPath(folder)!, slots, pacer);
  const workers: SharedInFlight[] = [];
  return {
    keeper,
    async worker() {
      const worker = await SharedInFlight.connect(keeper.path, slots, new InFlightLimit(1));
      expect(worker, 'a worker reaches the keeper').toBeDefined();
      workers.push(worker!);
      return worker!;
    },
    async close() {
      for (const worker of workers) worker.close();
      await keeper.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Work that counts how many of its kind run at once, across every worker. */
function counter() {
  let running = 0;
  let most = 0;
  return {
    most: () => most,
    work: (ms: number) => async () => {
      running += 1;
      most = Math.max(most, running);
      await pause(ms);
      running -= 1;
    },
  };
}

test('three workers sharing four slots never have more than four requests running, and each gets its turn', async () => {
  const run = await keeperOf(4);
  try {
    const workers = await Promise.all([run.worker(), run.worker(), run.worker()]);
    const count = counter();
    const done = await Promise.all(
      workers.flatMap((worker, index) => Array.from({ length: 10 }, () => worker.run(count.work(3)).then(() => index))),
    );
    expect(count.most()).toBe(4);
    expect(done.filter((index) => index === 2)).toHaveLength(10);
  } finally {
    await run.close();
  }
});

test('a worker alone uses every slot of the run, not a share of them', async () => {
  const run = await keeperOf(5);
  try {
    const [busy] = await Promise.all([run.worker(), run.worker()]);
    const count = counter();
    await Promise.all(Array.from({ length: 12 }, () => busy.run(count.work(5))));
    expect(count.most()).toBe(5);
  } finally {
    await run.close();
  }
});

test('a worker that goes away while holding slots gives them back to the others', async () => {
  const run = await keeperOf(2);
  try {
    const [leaving, staying] = await Promise.all([run.worker(), run.worker()]);
    // The leaving worker holds both slots with work that never ends, then its process is gone.
    void leaving.run(() => new Promise(() => {}));
    void leaving.run(() => new Promise(() => {}));
    await pause(50);
    let served = false;
    const waiting = staying.run(async () => void (served = true));
    await pause(50);
    expect(served, 'no slot is free while the other worker holds both').toBe(false);
    leaving.close();
    await waiting;
    expect(served).toBe(true);
  } finally {
    await run.close();
  }
});

test('a worker that loses the keeper goes on with its own share: what waited is served, nothing hangs', async () => {
  const run = await keeperOf(1);
  try {
    const worker = await run.worker();
    let release!: () => void;
    const holding = worker.run(() => new Promise<void>((resolve) => (release = resolve)));
    await pause(20);
    const waited = worker.run(async () => 'served after the keeper was lost');
    await run.keeper.close();
    await expect(waited).resolves.toBe('served after the keeper was lost');
    await expect(worker.run(async () => 'and later ones too')).resolves.toBe('and later ones too');
    release();
    await holding;
  } finally {
    await run.close();
  }
});

test('a keeper that cannot be reached, or a folder too deep for a socket, leaves the workers their static shares', async () => {
  expect(await SharedInFlight.connect(join(tmpdir(), 'no-such-keeper.sock'), 4, new InFlightLimit(2))).toBeUndefined();
  expect(slotKeeperPath(join(tmpdir(), 'x'.repeat(120)))).toBeUndefined();
  expect(slotKeeperPath('/tmp/conformance-run-0f0e')).toBe('/tmp/conformance-run-0f0e/slots.sock');
});

/** `count` requests a worker starts at once through its slots: when each was let through. */
async function startsThrough(worker: InFlight, count: number): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, () => worker.run(async () => Date.now())));
}

/** A pacer that notes each start it grants, at the moment of the grant: the keeper's side of the spacing, free of the socket's delivery time. */
class GrantLog extends Pacer {
  readonly grants: number[] = [];
  override waitBeforeStart(now: number = Date.now()): number {
    const wait = super.waitBeforeStart(now);
    if (wait === 0) this.grants.push(now);
    return wait;
  }
}

test('under MAX_RPS the keeper paces every start of the run: a worker started again cannot crowd the second its predecessor filled', async () => {
  const pacer = new GrantLog(20);
  const run = await keeperOf(8, pacer);
  try {
    const before = await startsThrough(await run.worker(), 20);
    // Playwright starts a worker again after a failure: the old one is gone, a new one asks at once.
    const after = await startsThrough(await run.worker(), 10);
    const starts = [...before, ...after];
    expect(busiestSecond(starts)).toBeLessThanOrEqual(20);
    // Every start was the keeper's to grant, and none came before its place in the planned cadence
    // (50 ms apart). A grant late by a timer's lateness lets the next keep the cadence, so two grants
    // may be closer than 50 ms; none is ever early.
    expect(pacer.grants).toHaveLength(30);
    const early = pacer.grants.filter((grant, index) => grant < pacer.grants[0]! + index * 50);
    expect(early, 'grants before their place in the cadence').toEqual([]);
  } finally {
    await run.close();
  }
  // What workers pacing alone did: the one started again knows nothing of its predecessor's starts.
  const pacingAlone = () => pacedInFlight(new InFlightLimit(8), new Pacer(20));
  const first = pacingAlone();
  const second = pacingAlone();
  const alone = [...(await startsThrough(first, 20)), ...(await startsThrough(second, 10))];
  expect(busiestSecond(alone)).toBeGreaterThan(20);
});

/** Holds this thread's event loop, as a worker judging a large answer does: no socket is read meanwhile. */
function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('under MAX_RPS a start counts from when its worker sent it: a worker busy when its grant came holds the window from its late start', async () => {
  // One start a second, each counted for 1.1 s. Right after the first grant is written, the worker's
  // loop is held for 300 ms (keeper and worker share this thread), so it reads the grant that late.
  let held = false;
  class HoldAfterFirstGrant extends Pacer {
    override waitBeforeStart(now: number = Date.now()): number {
      const wait = super.waitBeforeStart(now);
      if (wait === 0 && !held) setImmediate(() => busyFor(300));
      held ||= wait === 0;
      return wait;
    }
  }
  const run = await keeperOf(8, new HoldAfterFirstGrant(1));
  try {
    const [first, second] = await startsThrough(await run.worker(), 2);
    // Counted from its grant, the first would have left the window 800 ms after it was sent.
    expect(second! - first!).toBeGreaterThan(1_050);
  } finally {
    await run.close();
  }
});

test('the keeper reads when a start was sent even split across chunks, ignores one it never granted, and counts one never sent from when its worker went away', async () => {
  const said: string[] = [];
  class SaidLog extends Pacer {
    override sent(atMs: number): void {
      said.push(`sent at ${atMs}`);
      super.sent(atMs);
    }
    override neverSent(count: number, now?: number): void {
      if (count > 0) said.push(`${count} never sent`);
      super.neverSent(count, now);
    }
  }
  const run = await keeperOf(4, new SaidLog(50));
  const worker = createConnection(run.keeper.path);
  try {
    await once(worker, 'connect');
    worker.write('+');
    await once(worker, 'data');
    // 's' and the time as a little-endian double, whose bytes here read as asks and give-backs ('+-').
    const message = Buffer.from([0x73, 0x2b, 0x2d, 0x2b, 0x2d, 0x2b, 0x2d, 0x70, 0x42]);
    const atMs = message.readDoubleLE(1);
    worker.write(message.subarray(0, 4));
    await pause(50);
    worker.write(message.subarray(4));
    worker.write(message);
    worker.write('+');
    await once(worker, 'data');
    await pause(50);
    expect(said).toEqual([`sent at ${atMs}`]);
    worker.destroy();
    await pause(50);
    expect(said).toEqual([`sent at ${atMs}`, '1 never sent']);
  } finally {
    worker.destroy();
    await run.close();
  }
});
