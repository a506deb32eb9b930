// The hostile-data catalog run (issue 46, item 7): for each hostile answer (hostile-answers.ts), the
// suite is run against it through the judging proxy, which records a HAR, and `har` then judges that
// HAR: active, proxy and recording, as a team would meet such a target. Each run gives the verdict the
// catalog says within its bound, without a stack trace; and every byte any of them wrote (consoles,
// the three reports of each, the HAR, Playwright's test-results with its traces and error contexts)
// holds no key in any form, no raw control character, no injected markup in a report a browser or an
// XML reader opens, and nothing the answers asked to execute was executed.
import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { referenceTargetEnv, runScript, runSuite, type RunResult } from '../runner/run-suite.ts';
import { CLI, freshDir, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import { startProxyProcess, type ProxyExit } from '../passive/proxy-process.ts';
import { describeFindings, filesUnder, scanOutputs, type Secret } from '../suite/output-files.ts';
import { STACK_TRACE } from '../suite/stack-trace.ts';
import { HOSTILE_GREP, hostileAnswers, INJECTED_MARKUP, type HostileAnswer } from './hostile-answers.ts';
import { startHostileTarget } from './hostile-target.ts';
import { rawControlsIn } from './raw-controls.ts';

/** Files a reader opens as text: searched for raw controls. Zips (traces) hold the recorded bytes compressed. */
const TEXT_FILES = new Set(['.html', '.json', '.xml', '.md', '.har', '.txt', '.jsonl']);
/** Files a browser or an XML reader interprets: searched for injected markup. */
const MARKUP_FILES = new Set(['.html', '.xml']);

interface HostileRun {
  suite: RunResult;
  suiteMs: number;
  proxy: ProxyExit;
  har: RunResult;
  harMs: number;
  root: string;
  marker: string;
  keys: Secret[];
}

const verdictIn = (folder: string): string | undefined => {
  const path = join(folder, 'results.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { verdict?: string }).verdict : undefined;
};

/** The MUST requirements a report (the suite's, the proxy's, har's) found failed. */
const failedIn = (folder: string): string[] =>
  (JSON.parse(readFileSync(join(folder, 'results.json'), 'utf8')) as { summary: { mustFailed: string[] } }).summary.mustFailed;

async function runAgainst(hostile: HostileAnswer, root: string, marker: string): Promise<HostileRun> {
  const keys: Secret[] = [
    { name: 'API_KEY', value: `sentinel-full-${randomBytes(16).toString('hex')}` },
    { name: 'RESTRICTED_API_KEY', value: `sentinel-restricted-${randomBytes(16).toString('hex')}` },
  ];
  const target = await startHostileTarget(hostile, { fullAccess: keys[0]!.value, readOnly: keys[1]!.value });
  const recording = join(root, 'traffic.har');
  try {
    const proxy = await startProxyProcess(['--target', target.base, '--port', '0', '--har', recording], {
      REPORT_DIR: join(root, 'proxy-report'),
    });
    let suite: RunResult;
    let suiteMs: number;
    let exit: ProxyExit;
    try {
      const started = Date.now();
      // Bounded at twice the catalog's bound, so that a run over it is measured and said, not killed.
      suite = await runSuite(
        ['--project=conformance', `--output=${join(root, 'test-results')}`, '--grep', HOSTILE_GREP],
        {
          ...referenceTargetEnv(proxy.base),
          API_KEY: keys[0]!.value,
          RESTRICTED_API_KEY: keys[1]!.value,
          REPORT_DIR: join(root, 'suite-report'),
          CONFORMANCE_RETRIES: '0',
        },
        2 * hostile.boundMs,
      );
      suiteMs = Date.now() - started;
    } finally {
      exit = await proxy.stop('SIGTERM');
    }
    const started = Date.now();
    const har = await runScript(CLI.conformance, ['har', recording], { REPORT_DIR: join(root, 'har-report') }, 2 * hostile.boundMs);
    return { suite, suiteMs, proxy: exit, har, harMs: Date.now() - started, root, marker, keys };
  } finally {
    await target.close();
  }
}

for (const hostile of hostileAnswers('MARKER')) {
  test(`${hostile.name} (${hostile.description}): ${hostile.verdicts.active} and ${hostile.verdicts.passive}, each within ${hostile.boundMs / 1000} s; no key, raw control, injected markup or execution in any output`, async () => {
    test.setTimeout(4 * hostile.boundMs + SUITE_RUN_TIMEOUT_MS);
    const root = freshDir(`hostile-${hostile.name}`);
    const marker = join(root, 'executed');
    const entry = hostileAnswers(marker).find((candidate) => candidate.name === hostile.name)!;
    const run = await runAgainst(entry, root, marker);
    const consoles: Array<[string, string]> = [
      ['suite stdout', run.suite.stdout],
      ['suite stderr', run.suite.stderr],
      ['proxy stdout', run.proxy.stdout],
      ['proxy stderr', run.proxy.stderr],
      ['har stdout', run.har.stdout],
      ['har stderr', run.har.stderr],
    ];

    test.info().annotations.push({ type: 'took', description: `suite ${run.suiteMs} ms, har ${run.harMs} ms` });
    // The verdicts, each within its bound, with no stack trace.
    expect(verdictIn(join(root, 'suite-report')), run.suite.stdout.slice(-3000)).toBe(entry.verdicts.active);
    expect(run.suite.code).toBe(entry.verdicts.active === 'NON-CONFORMANT' ? 1 : 3);
    const failed = (JSON.parse(readFileSync(join(root, 'suite-report', 'results.json'), 'utf8')) as { summary: { mustFailed: string[] } })
      .summary.mustFailed;
    test.info().annotations.push({ type: 'failed', description: failed.join(' ') });
    expect(failed, 'the requirements the run failed').toEqual(expect.arrayContaining([...entry.fails]));
    for (const id of entry.holds ?? []) expect(failed, `${id} failed, though the answer does not break it`).not.toContain(id);
    expect(run.suiteMs, 'the suite run, in ms').toBeLessThanOrEqual(entry.boundMs);
    expect(verdictIn(join(root, 'proxy-report')), run.proxy.stdout.slice(-2000)).toBe(entry.verdicts.passive);
    expect(verdictIn(join(root, 'har-report')), run.har.stdout.slice(-2000)).toBe(entry.verdicts.passive);
    // What the traffic shows of the requirements the answer breaks, the proxy and har name too.
    for (const report of ['proxy-report', 'har-report']) {
      const passiveFailed = failedIn(join(root, report));
      expect(passiveFailed, report).toEqual(expect.arrayContaining([...entry.fails]));
      for (const id of entry.holds ?? []) expect(passiveFailed, `${report}: ${id}`).not.toContain(id);
    }
    expect(run.har.code).toBe(1);
    expect(run.harMs, 'har, in ms').toBeLessThanOrEqual(entry.boundMs);
    for (const [name, text] of consoles) expect(text, name).not.toMatch(STACK_TRACE);

    // No key, in any form, in any byte written.
    const scan = scanOutputs(run.keys, { texts: Object.fromEntries(consoles), folders: { [root]: root } });
    expect(scan.findings, describeFindings(scan.findings)).toEqual([]);

    // No raw control in any text a reader opens; no markup a browser or XML reader would act on.
    const files = filesUnder(root).map((path) => [path, join(root, path)] as const);
    const texts = files
      .filter(([path]) => TEXT_FILES.has(extname(path)))
      .map(([path, full]) => [path, readFileSync(full, 'utf8')] as const);
    expect(texts.map(([path]) => path)).toEqual(expect.arrayContaining(['traffic.har', join('suite-report', 'index.html')]));
    expect(rawControlsIn([...consoles, ...texts])).toEqual([]);
    const markup = texts.filter(([path, text]) => MARKUP_FILES.has(extname(path)) && INJECTED_MARKUP.test(text)).map(([path]) => path);
    expect(markup, 'reports holding injected markup raw').toEqual([]);

    // Nothing the answers asked to run was run.
    expect(existsSync(marker), `${marker} was created`).toBe(false);
  });
}
