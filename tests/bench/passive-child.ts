// One passive judging of a HAR file (or a capture: capture-reader.ts) by `npm run conformance -- har
// FILE`'s own code (passive/har-command.ts: the reading, judging and reports on the thread it
// starts, with its limits), in a process of its own so that its resident memory peak is its own.
// Prints one JSON line: entries, exchanges judged, milliseconds, CPU milliseconds (its threads'
// too), peak resident memory (MiB) and the verdict, read back from the report's results.json.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHar } from '../../passive/har-command.ts';

const file = process.argv[2]!;
const dir = mkdtempSync(join(tmpdir(), 'bench-passive-report-'));
try {
  // Read by the judging thread as it starts: the reports go here, and every host's entries are judged.
  Object.assign(process.env, { REPORT_DIR: dir, CALLS_BASE_URL: '', CHAT_BASE_URL: '', APP_ID: '', REGION: '' });
  const started = performance.now();
  const cpu = process.cpuUsage();
  const code = await runHar([file]);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (code !== 0 && code !== 1) throw new Error(`the har command exited ${code}`);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
    verdict: string;
    passive: { entries: number; exchanges: number };
  };
  // maxRSS is in KiB on Linux.
  process.stdout.write(
    `${JSON.stringify({ entries: results.passive.entries, exchanges: results.passive.exchanges, ms, cpuMs: (used.user + used.system) / 1000, peakRssMiB: process.resourceUsage().maxRSS / 1024, verdict: results.verdict })}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
