// What the counting door (counting-door.ts) knows of its own running: a heartbeat every 5 ms, each
// one late by more than BLIND_AFTER_MS marking a spell the door did not run. A request read after
// such a spell may have arrived at any time within it. The door learns of a spell in one of two
// orders. When the system let it wait for a core while it waited for requests, or stopped it, the
// requests that came meanwhile may be read first, and find the heartbeat overdue. Otherwise the
// heartbeat runs first, and what came during the spell is read in the turns of the event loop that
// follow: a request on a new connection is read a turn after its connection is accepted, and on a
// loaded machine those turns may be many milliseconds apart (CI read them after the heartbeat's
// next 5 ms had passed). So the spell holds until the heartbeat has run on time SETTLE_BEATS times
// after it: each beat runs in a turn of its own, after that turn has read what was waiting.

export const HEARTBEAT_MS = 5;
/** Lateness up to this is taken as running: well within the pacer's 100 ms of arrival spread. */
const BLIND_AFTER_MS = 20;
/** Turns after a spell by which all that came during it has been read: its connections accepted in one, read in the next; one more to spare. */
const SETTLE_BEATS = 3;

export class DoorWatch {
  private lastBeat: number;
  private blindFrom = 0;
  /** Beats on time still to come before the last spell no longer reaches what is read. */
  private unsettled = 0;

  constructor(now: number) {
    this.lastBeat = now;
  }

  /** The heartbeat, at `now`. */
  beat(now: number): void {
    if (this.overdue(now)) {
      // A spell while the one before still holds may be read with it: both are one spell.
      if (this.unsettled === 0) this.blindFrom = this.lastBeat;
      this.unsettled = SETTLE_BEATS;
    } else if (this.unsettled > 0) {
      this.unsettled -= 1;
    }
    this.lastBeat = now;
  }

  /** The earliest a request read at `now` may have arrived: `now`, unless it was read after a spell the door did not run. */
  arrivedFrom(now: number): number {
    if (this.unsettled > 0) return this.blindFrom;
    return this.overdue(now) ? this.lastBeat : now;
  }

  private overdue(now: number): boolean {
    return now - this.lastBeat > HEARTBEAT_MS + BLIND_AFTER_MS;
  }
}
