// The counting door's judgement of its own running (door-watch.ts), on timelines of its heartbeat:
// a request read while the door ran is known to the millisecond; one read after a spell it did not
// run is placed from the spell's start, whichever the door learned of first, until the heartbeat
// has run on time SETTLE_BEATS times after it.
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

test("read after the heartbeat that found the spell: placed from the spell's start until the heartbeat has run on time three times since", () => {
  const watch = beatingUntil(100);
  watch.beat(400);
  expect(watch.arrivedFrom(401)).toBe(100);
  // A loaded machine may read what came during the spell turns later (CI read it after 5 ms).
  expect(watch.arrivedFrom(412)).toBe(100);
  for (const now of [405, 410]) {
    watch.beat(now);
    expect(watch.arrivedFrom(now + 2)).toBe(100);
  }
  // The third beat on time: what is read from then on was read as it came.
  watch.beat(415);
  expect(watch.arrivedFrom(417)).toBe(417);
  watch.beat(420);
  expect(watch.arrivedFrom(422)).toBe(422);
});

test("a spell while the one before still holds is the same spell: what is read after it is placed from the first one's start", () => {
  const watch = beatingUntil(100);
  watch.beat(400);
  watch.beat(405);
  // Kept from running again before the next turns came: a request from the first spell may still wait.
  watch.beat(600);
  expect(watch.arrivedFrom(601)).toBe(100);
  for (const now of [605, 610]) watch.beat(now);
  expect(watch.arrivedFrom(612)).toBe(100);
  watch.beat(615);
  expect(watch.arrivedFrom(616)).toBe(616);
  // A spell after the last one settled starts afresh.
  watch.beat(900);
  expect(watch.arrivedFrom(901)).toBe(615);
});
