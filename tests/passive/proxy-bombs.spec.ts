// Gzip bombs from the target do not take the judging proxy down. Measured before the cap: three
// answers of a quarter of a megabyte of gzip each, inflating to 256 MiB, ran the proxy out of heap
// ("JavaScript heap out of memory" at 1.4 GiB) and cut off every client behind it. Here the proxy
// runs as a team runs it (its own process, its judging thread), three such answers pass through it
// at once, and: each client gets the target's bytes unchanged; the proxy keeps serving; its peak
// memory, read by the kernel (VmHWM of the process, and the proxy's own report of it), stays under
// 400 MiB; and the three are judged on their status alone, counted as too large to judge.
import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { freshDir } from '../reports/report-runs.ts';
import { startProxyProcess } from './proxy-process.ts';
import { sendRaw } from './proxy-origin.ts';
import { bomb, startHostileTarget } from './proxy-hostile-target.ts';

test.setTimeout(90_000);

const LIMIT_MIB = 400;

/** The process whose command line holds `word` (the proxy's own --target), from /proc: Linux only. */
function pidOf(word: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (command.includes(word) && command.includes('proxy')) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

/** A process's peak resident memory so far, in MiB (VmHWM). */
const peakMiB = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

test('three gzip answers at once, each 0.25 MB inflating to 256 MiB: passed on unchanged, the proxy stays up and under 400 MiB, and they are judged without their bodies', async () => {
  test.skip(!existsSync('/proc/self/status'), 'reads the peak memory from /proc');
  const target = await startHostileTarget();
  const sent = await bomb('gzip', 256);
  expect(sent.length).toBeLessThan(300_000);
  try {
    const proxy = await startProxyProcess(['--target', target.base, '--port', '0'], { REPORT_DIR: freshDir('proxy-bombs') });
    const pid = pidOf(target.base);
    expect(pid).toBeDefined();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        sendRaw(`${proxy.base}/calls?coding=gzip&mib=256`, 'GET', ['apikey', DEMO_KEYS.fullAccess, 'Accept-Encoding', 'gzip']),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.equals(sent)).toBe(true);
    }
    // Still serving, once the three have been decoded (as far as the bound) and judged.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await sendRaw(`${proxy.base}/ok`)).status).toBe(200);
    const peak = peakMiB(pid!);
    const exit = await proxy.stop('SIGTERM');
    expect(exit.stderr).not.toContain('heap out of memory');
    expect(exit.code, exit.stdout + exit.stderr).toBe(0);
    expect(exit.stdout).toContain(
      '3 exchanges with a body too large to judge (over 10 MiB as it passed, or once decompressed), passed on whole and judged on status and headers alone',
    );
    expect(exit.stdout).toContain('Passive verdict: NO VIOLATIONS IN 3 EXCHANGES.');
    const reported = Number(/^peak memory of the proxy: (\d+) MiB resident$/m.exec(exit.stdout)![1]);
    console.log(`proxy peak memory: ${peak.toFixed(0)} MiB (VmHWM, read before it stopped), ${reported} MiB (its own report at the end)`);
    expect(peak).toBeLessThan(LIMIT_MIB);
    expect(reported).toBeLessThan(LIMIT_MIB);
  } finally {
    await target.close();
  }
});
