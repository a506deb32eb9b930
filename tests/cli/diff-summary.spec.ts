// The job summary of a diff report folder (the `summary` command, which the GitHub Action runs on its
// report folder): the headline, each difference beyond noise with its class and the requirement it
// names, the readings that changed; a field path a target sent is kept inside its table cell; a
// diff's results.json without its diff object is refused in one line, exit 2.
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTwoDoors } from '../../reference/two-doors.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { childEnv, runScript } from '../runner/run-suite.ts';
import { CLI, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';

test.describe.configure({ timeout: SUITE_RUN_TIMEOUT_MS });

test('a diff report folder is summarised: its headline, its differences classed, what they name', async () => {
  const doors = await openTwoDoors({ calls: 300 }, { fault: findFault('receiver-missing-for-groups')! });
  const dir = mkdtempSync(join(tmpdir(), 'diff-summary-'));
  try {
    const env = {
      CALLS_BASE_URL: doors.primary,
      CHAT_BASE_URL: doors.primary,
      API_KEY: DEMO_KEYS.fullAccess,
      CANDIDATE_CALLS_BASE_URL: doors.candidate,
      CANDIDATE_CHAT_BASE_URL: doors.candidate,
      CANDIDATE_API_KEY: DEMO_KEYS.fullAccess,
      REPORT_DIR: dir,
    };
    const run = await runScript(CLI.conformance, ['diff'], childEnv(env), SUITE_RUN_TIMEOUT_MS);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    const summary = await runScript(CLI.conformance, ['summary', dir, '--report-url', 'https://ci.invalid/run/1'], childEnv());
    expect(summary.code, summary.stderr).toBe(0);
    expect(summary.stdout).toMatch(/^## Diff: DIFFERENCES\n/);
    expect(summary.stdout).toContain('| Class | Operation | Field path | Kind | Candidate | A/A | Names |');
    expect(summary.stdout).toMatch(
      /\| regression \| listCalls \| `data\[\]\.receiver` \| missing-field \| \d+\/\d+ \| 0 \| CALL-FIELD-RECEIVER \|/,
    );
    expect(summary.stdout).toContain('Report: https://ci.invalid/run/1');

    // A field path is the target's: whatever it holds stays in its cell and opens no HTML.
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { diff: { findings: Array<{ path: string }> } };
    results.diff.findings[0]!.path = 'a|b<script>\nnext';
    writeFileSync(join(dir, 'results.json'), JSON.stringify(results));
    const hostile = await runScript(CLI.conformance, ['summary', dir], childEnv());
    expect(hostile.code, hostile.stderr).toBe(0);
    expect(hostile.stdout).not.toContain('<script>');
    expect(hostile.stdout).not.toContain('a|b');

    writeFileSync(join(dir, 'results.json'), JSON.stringify({ kind: 'diff', seed: 1 }));
    const broken = await runScript(CLI.conformance, ['summary', dir], childEnv());
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^summary: .*results\.json is a diff's results\.json without its diff object\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await doors.close();
  }
});
