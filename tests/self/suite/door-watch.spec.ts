// The counting door's judgement of its own running (door-watch.ts), on timelines of its heartbeat:
// a request read while the door ran is known to the millisecond; one read after a spell it did not
// run is placed from the spell's start, whichever the door learned of first.
import { test, expect } from '@playwright/test';
import { DoorWatch, HEARTBEAT_MS } from './door-watch.ts';

/** A watch whose heartbeat ran every 5 ms up to `until`. */
function beatingUntil(until: number): DoorWatch {
  const watch = new DoorWatch(0);
  for (let now = HEARTBEAT_MS; now <= until; now += HEARTBEAT_MS) watch.beat(now);
  return watch;
}

test('a request read while the door runs arrived when it was read, lateness of a few milliseconds included', () => {
  const watch = beatingUntil(100);
  expect(watch.arrivedFrom(102)).toBe(102);
  // The heartbeat 20 ms late: still running, for the rate's purposes.
  expect(watch.arrivedFrom(124)).toBe(124);
  watch.beat(124);
  expect(watch.arrivedFrom(126)).toBe(126);
});

test('read first after a spell, before the overdue heartbeat: it may have come any time since the last beat', () => {
  const watch = beatingUntil(100);
  expect(watch.arrivedFrom(400)).toBe(100);
  expect(watch.arrivedFrom(401)).toBe(100);
  // The heartbeat then runs, and marks the same spell for what is still read in this turn.
  watch.beat(402);
  expect(watch.arrivedFrom(403)).toBe(100);
});

test('read after the heartbeat that found the spell: placed from the spell\'s start until the next beat', () => {
  const watch = beatingUntil(100);
  watch.beat(400);
  expect(watch.arrivedFrom(401)).toBe(100);
  expect(watch.arrivedFrom(404)).toBe(100);
  // A beat on time later: what is read from then on was read as it came.
  expect(watch.arrivedFrom(405)).toBe(405);
  watch.beat(405);
  expect(watch.arrivedFrom(407)).toBe(407);
});
