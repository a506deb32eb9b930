// CPU time each process, and each thread of the proxy, spent on a load, read from Linux's /proc: a
// figure per exchange that does not move with how busy the machine is, where requests a second do.
// It says what the throughput ratio can be at best: on shared cores, the proxy's hop costs the load
// what its traffic's thread spends per exchange, beside what the reference and the load generator spend.
// Elsewhere than Linux there is no /proc: the bench leaves the figures out.
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's /proc counts in clock ticks of 10 ms (USER_HZ, 100 on every architecture Node runs on). */
const MS_PER_TICK = 10;

export interface ThreadTime {
  tid: number;
  /** The thread's name, as Node 24 names them: `MainThread`, `WorkerThread`, `V8Worker` (V8's helpers), `libuv-worker`. */
  name: string;
  nice: number;
  /** User and system time, in ms. */
  ms: number;
}

/** Each thread of `pid` now; undefined where there is no /proc or the process is gone. */
export function threadTimes(pid: number): ThreadTime[] | undefined {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      try {
        return [parseStat(Number(tid), readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'))];
      } catch {
        return []; // A thread that ended between the listing and the read.
      }
    });
  } catch {
    return undefined;
  }
}

/** One line of /proc/…/stat: the name is in parentheses and may hold spaces, so fields count from its end. */
function parseStat(tid: number, stat: string): ThreadTime {
  const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state (0), …, utime (11), stime (12), …, nice (16).
  return { tid, name, nice: Number(fields[16]), ms: (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK };
}

const total = (threads: ThreadTime[]) => threads.reduce((sum, thread) => sum + thread.ms, 0);

/** The time each thread spent between two readings of the same process (threads in both). */
export function spent(before: ThreadTime[], after: ThreadTime[]): ThreadTime[] {
  const earlier = new Map(before.map((thread) => [thread.tid, thread.ms]));
  return after.map((thread) => ({ ...thread, ms: thread.ms - (earlier.get(thread.tid) ?? 0) }));
}

export interface ProxyTime {
  /** The thread that passes the traffic: the busiest worker thread at normal priority. */
  trafficMs: number;
  /** The judging thread: the one that lowered its priority (proxy-judging-thread.ts). */
  judgeMs: number;
  /** Every other thread: the main thread, V8's helpers (collecting garbage, compiling), libuv's. */
  otherMs: number;
}

/** The proxy's time by its roles, from what each of its threads spent. */
export function proxyTime(threads: ThreadTime[]): ProxyTime {
  const judge = threads.filter((thread) => thread.nice > 0);
  const workers = threads.filter((thread) => thread.nice <= 0 && thread.name === 'WorkerThread').sort((a, b) => b.ms - a.ms);
  const trafficMs = workers[0]?.ms ?? 0;
  return { trafficMs, judgeMs: total(judge), otherMs: total(threads) - total(judge) - trafficMs };
}

/** CPU microseconds per exchange over the runs of one way. */
export interface CpuPerExchange {
  /** This process: autocannon, the load generator. */
  loadUs: number;
  referenceUs: number;
  /** Through the proxy only: its traffic's thread, its judging thread, and its other threads (V8's helpers among them). */
  proxyTrafficUs?: number;
  proxyJudgeUs?: number;
  proxyOtherUs?: number;
}

/** Sums, over several runs of one way, the CPU time of this process (the load), the reference and the proxy, and the exchanges. */
export class CpuTally {
  private exchanges = 0;
  private loadMs = 0;
  private referenceMs = 0;
  private proxy: ProxyTime = { trafficMs: 0, judgeMs: 0, otherMs: 0 };
  private readable = true;
  private throughProxy = false;

  /** Readings before one run; `end` after it, with the exchanges it passed. `proxyPid` is read only when the run goes through it. */
  start(referencePid: number, proxyPid?: number): { end(exchanges: number): void } {
    const load = process.cpuUsage();
    const reference = threadTimes(referencePid);
    const proxy = proxyPid === undefined ? undefined : threadTimes(proxyPid);
    return {
      end: (exchanges) => {
        const referenceAfter = threadTimes(referencePid);
        const proxyAfter = proxyPid === undefined ? undefined : threadTimes(proxyPid);
        if (!reference || !referenceAfter || (proxyPid !== undefined && (!proxy || !proxyAfter))) {
          this.readable = false;
          return;
        }
        const used = process.cpuUsage(load);
        this.exchanges += exchanges;
        this.loadMs += (used.user + used.system) / 1000;
        this.referenceMs += total(spent(reference, referenceAfter));
        if (proxy && proxyAfter) {
          this.throughProxy = true;
          const roles = proxyTime(spent(proxy, proxyAfter));
          this.proxy = {
            trafficMs: this.proxy.trafficMs + roles.trafficMs,
            judgeMs: this.proxy.judgeMs + roles.judgeMs,
            otherMs: this.proxy.otherMs + roles.otherMs,
          };
        }
      },
    };
  }

  /** Microseconds per exchange; undefined when /proc could not be read, or nothing passed. */
  perExchange(): CpuPerExchange | undefined {
    if (!this.readable || this.exchanges === 0) return undefined;
    const us = (ms: number) => (ms * 1000) / this.exchanges;
    return {
      loadUs: us(this.loadMs),
      referenceUs: us(this.referenceMs),
      ...(this.throughProxy && {
        proxyTrafficUs: us(this.proxy.trafficMs),
        proxyJudgeUs: us(this.proxy.judgeMs),
        proxyOtherUs: us(this.proxy.otherMs),
      }),
    };
  }
}
