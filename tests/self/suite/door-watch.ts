// What the counting door (counting-door.ts) knows of its own running: a heartbeat every 5 ms, each
// one late by more than BLIND_AFTER_MS marking a spell the door did not run. A request read after
// such a spell may have arrived at any time within it. The door learns of a spell in one of two
// orders. After work of its own, or a stop by the system, the heartbeat runs first, and marks the
// spell for what is read before the next beat. After the system let it wait for a core while it
// waited for requests, the requests are read first, and find the heartbeat overdue.

export const HEARTBEAT_MS = 5;
/** Lateness up to this is taken as running: well within the pacer's 100 ms of arrival spread. */
const BLIND_AFTER_MS = 20;

export class DoorWatch {
  private lastBeat: number;
  private blindFrom = 0;
  private blindUntil = -Infinity;

  constructor(now: number) {
    this.lastBeat = now;
  }

  /** The heartbeat, at `now`. */
  beat(now: number): void {
    if (now - this.lastBeat > HEARTBEAT_MS + BLIND_AFTER_MS) {
      this.blindFrom = this.lastBeat;
      this.blindUntil = now + HEARTBEAT_MS;
    }
    this.lastBeat = now;
  }

  /** The earliest a request read at `now` may have arrived: `now`, unless it was read after a spell the door did not run. */
  arrivedFrom(now: number): number {
    if (now - this.lastBeat > HEARTBEAT_MS + BLIND_AFTER_MS) return this.lastBeat;
    return now < this.blindUntil ? this.blindFrom : now;
  }
}
