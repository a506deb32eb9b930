// How fast the passive judge judges List Calls pages (issue 36, item 1): real pages of 25 calls from
// the reference, fetched once, then handed to one judge again and again as fresh exchanges, on this
// thread alone. Prints pages judged a second. Target: at least 1,000.
import { createServer } from '../../reference/server.ts';
import { DEFAULT_CALLS, DEMO_KEYS } from '../../reference/fixtures.ts';
import { createPassiveJudge } from '../../passive/judge.ts';
import type { RecordedExchange } from '../../passive/recorded-exchange.ts';
import type { Target } from './render.ts';
import { JUDGING_THREAD_LIMITS } from '../../passive/proxy/proxy-command.ts';
import { startThread } from '../../passive/threads.ts';

export interface JudgeSpeed {
  pages: number;
  ms: number;
  /** CPU time of this process while judging: on a busy machine, the measure of one core's work. */
  cpuMs: number;
  pagesPerCpuSecond: number;
  bodyBytes: number;
  pagesPerSecond: number;
  exchanges: number;
  violations: number;
}

const QUERIES = [
  'perPage=25',
  'perPage=25&page=2',
  'perPage=25&type=video',
  'perPage=25&status=ended',
  'perPage=25&hasRecording=true&page=3',
];

/** Real answers of the reference to List Calls pages of 25 calls, as recorded exchanges. */
async function listPages(): Promise<RecordedExchange[]> {
  const reference = createServer({ calls: DEFAULT_CALLS });
  const base = await reference.listen(0);
  try {
    const pages: RecordedExchange[] = [];
    for (const query of QUERIES) {
      const url = `${base}/calls?${query}`;
      const headers: Array<[string, string]> = [
        ['apikey', DEMO_KEYS.fullAccess],
        ['accept', 'application/json'],
      ];
      const response = await fetch(url, { headers: Object.fromEntries(headers) });
      pages.push({
        source: '',
        startedAt: '',
        request: { method: 'GET', url, headers },
        response: { status: response.status, headers: [...response.headers], bodyText: await response.text() },
        durationMs: 2,
      });
    }
    return pages;
  } finally {
    await reference.close();
  }
}

/** `pages` pages judged by one judge, after `warmUp` (the schemas compile, the readings are learned). */
export async function measureJudgeSpeed(pages = 5_000, warmUp = 500): Promise<JudgeSpeed> {
  const recorded = await listPages();
  const judge = createPassiveJudge();
  const start = Date.now();
  const at = (index: number): RecordedExchange => {
    const page = recorded[index % recorded.length]!;
    return { ...page, source: `bench, exchange ${index + 1}`, startedAt: new Date(start + index).toISOString() };
  };
  for (let index = 0; index < warmUp; index += 1) judge.add(at(index));
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  for (let index = warmUp; index < warmUp + pages; index += 1) judge.add(at(index));
  const cpu = process.cpuUsage(cpuBefore);
  const ms = performance.now() - started;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const result = judge.finish();
  const violations = [...result.requirements.values()].reduce((sum, tally) => sum + tally.violations, 0);
  return {
    pages,
    ms,
    cpuMs,
    pagesPerSecond: (pages / ms) * 1000,
    pagesPerCpuSecond: (pages / cpuMs) * 1000,
    bodyBytes: recorded[0]!.response.bodyText!.length,
    exchanges: result.exchanges,
    violations,
  };
}

/** The same measure on a thread with the limits the judging proxy gives its judging thread (JUDGING_THREAD_LIMITS), as it judges there. */
export async function measureJudgeSpeedOnThread(pages = 5_000, warmUp = 500): Promise<JudgeSpeed> {
  const thread = startThread(new URL('./judge-speed-thread.ts', import.meta.url), {
    workerData: { pages, warmUp },
    resourceLimits: JUDGING_THREAD_LIMITS,
  });
  try {
    return await new Promise<JudgeSpeed>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the judge's thread exited with ${code} before it answered`)));
    });
  } finally {
    await thread.terminate();
  }
}

/** Target: at least 1,000 pages a second on one core (CPU time: the machine is shared). */
export function judgeSpeedTarget(speed: JudgeSpeed): Target {
  return {
    name: "The judge alone, on a thread with the proxy's limits: List Calls pages of 25 calls judged per CPU-second (of the whole process, its GC threads included; target ≥ 1,000 on one core)",
    value: `${speed.pagesPerCpuSecond.toFixed(0)} (${speed.pages} pages of ${(speed.bodyBytes / 1024).toFixed(0)} KiB in ${(speed.cpuMs / 1000).toFixed(1)} s of CPU, ${(speed.ms / 1000).toFixed(1)} s of wall time)`,
    met: speed.pagesPerCpuSecond >= 1_000 && speed.violations === 0,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pages = Number(process.argv[2] ?? 5_000);
  process.stdout.write(`${JSON.stringify(await measureJudgeSpeedOnThread(pages))}\n`);
}
