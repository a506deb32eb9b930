// One passive judging of a HAR file (or a capture: capture-reader.ts), as `npm run conformance -- har FILE` does it (reader, judge,
// reports), in a process of its own so that its resident memory peak is its own. Prints one JSON
// line: entries, exchanges judged, milliseconds, CPU milliseconds (its threads' too), peak resident
// memory (MiB) and the verdict.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPassiveJudge } from '../../passive/judge.ts';
import { readCapture } from '../../passive/capture-reader.ts';
import { writePassiveReports } from '../../passive/passive-report.ts';
import { loadPassiveConfig } from '../../core/run/config.ts';

const file = process.argv[2]!;
const dir = mkdtempSync(join(tmpdir(), 'bench-passive-report-'));
try {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const judge = createPassiveJudge();
  const read = await readCapture(file, judge);
  const result = judge.finish();
  const written = writePassiveReports(result, {
    dir,
    sources: [file],
    rerun: `npm run conformance -- har ${file}`,
    env: {},
    config: loadPassiveConfig({}),
  });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  // maxRSS is in KiB on Linux.
  process.stdout.write(
    `${JSON.stringify({ entries: read.entries, exchanges: result.exchanges, ms, cpuMs: (used.user + used.system) / 1000, peakRssMiB: process.resourceUsage().maxRSS / 1024, verdict: written.report.verdict })}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
