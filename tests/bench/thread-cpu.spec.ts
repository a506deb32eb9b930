// The proxy bench's CPU figures (tests/bench/thread-cpu.ts) read Linux's /proc: checked on a real
// process whose threads do known work. A child runs two worker threads: one spins at normal priority
// (as the proxy's traffic thread would), one lowers its own priority to nice 10 and spins (as its
// judge does); the main thread sleeps. Read twice, the busy threads' time must land in their roles.
// Then the real proxy: its judging thread, and only it, runs at the judge's priority, which is how
// the bench tells it from the traffic's thread.
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { JUDGING_THREAD_NICE } from '../../passive/proxy/proxy-judging-thread-messages.ts';
import { proxyTime, spent, threadTimes } from './thread-cpu.ts';
import { startProxyProcess } from '../passive/proxy-process.ts';

const CHILD = `
const { Worker } = require('node:worker_threads');
const spin = (nice) => new Worker(\`
  const { readlinkSync } = require('node:fs');
  const { setPriority } = require('node:os');
  if (\${nice}) setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), \${nice});
  const end = Date.now() + 20000;
  while (Date.now() < end) {}
\`, { eval: true });
spin(0);
spin(10);
setTimeout(() => process.exit(0), 20000);
process.stdout.write('ready\\n');
`;

test('the busy thread at normal priority is counted as the traffic, the one at nice 10 as the judge, and the sleeping main thread as neither', async () => {
  test.skip(platform() !== 'linux', 'the CPU figures read Linux /proc; elsewhere the bench leaves them out');
  const child = spawn(process.execPath, ['-e', CHILD], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((resolve) => child.stdout.once('data', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = threadTimes(child.pid!)!;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = threadTimes(child.pid!)!;
    const threads = spent(before, after);
    expect(threads.map((thread) => thread.name)).toContain('WorkerThread');
    const nice = threads.filter((thread) => thread.nice === 10);
    expect(nice).toHaveLength(1);
    const roles = proxyTime(threads);
    // Each spinning thread ran for some of the 1.5 s, however busy the machine (10 ms ticks).
    expect(roles.trafficMs).toBeGreaterThan(50);
    expect(roles.judgeMs).toBeGreaterThan(0);
    expect(roles.judgeMs).toBe(nice[0]!.ms);
    // The main thread slept: the rest is V8's and libuv's threads, far less than a spinning thread's.
    const main = threads.find((thread) => thread.tid === child.pid)!;
    expect(main.ms).toBeLessThan(roles.trafficMs);
    expect(threadTimes(2 ** 22 + 1)).toBeUndefined();
  } finally {
    child.kill('SIGKILL');
  }
});

test("the proxy's judging thread, and no other thread of it, runs at the judge's priority (nice 10): the traffic comes first", async () => {
  test.skip(platform() !== 'linux', 'the priority is set, and read, through Linux /proc');
  const reports = mkdtempSync(join(tmpdir(), 'thread-cpu-proxy-'));
  const proxy = await startProxyProcess(['--target', 'http://127.0.0.1:9/v3', '--port', '0', '--report-every-minutes', '0'], {
    REPORT_DIR: reports,
  });
  try {
    const threads = threadTimes(proxy.pid)!;
    expect(threads.filter((thread) => thread.name === 'WorkerThread').length).toBeGreaterThanOrEqual(2);
    const lowered = threads.filter((thread) => thread.nice !== 0);
    expect(lowered.map((thread) => [thread.name, thread.nice])).toEqual([['WorkerThread', JUDGING_THREAD_NICE]]);
    expect(JUDGING_THREAD_NICE).toBe(10);
  } finally {
    await proxy.stop('SIGTERM');
    rmSync(reports, { recursive: true, force: true });
  }
});
