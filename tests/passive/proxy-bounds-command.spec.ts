// The judging proxy's bounds as a team meets them on the command line: the timeout options, read
// with node:util's parseArgs as the other commands read theirs (read-options.ts) and refused in one
// line naming the option when wrong; a target that does not answer in time, answered 504 and
// counted on the console and in the reports; and the reports' "Redacted" line naming the credential
// header every request carried, even when none of those requests could be judged (it used to say
// "no credential header was present").
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_UPSTREAM_TIMEOUTS } from '../../passive/proxy/proxy-deadline.ts';
import { parseProxyArguments, PROXY_OPTIONS } from '../../passive/proxy/proxy-command.ts';
import { commandHelp, findCommand } from '../../cli/usage.ts';
import { runScript } from '../runner/run-suite.ts';
import { CLI, freshDir } from '../reports/report-runs.ts';
import { startProxyProcess } from './proxy-process.ts';
import { sendRaw } from './proxy-origin.ts';
import { startHostileTarget } from './proxy-hostile-target.ts';

test.setTimeout(120_000);

const TARGET = 'http://127.0.0.1:1/v3';

test('the timeouts default to 10 s to connect, 30 s to the first byte and 30 s of quiet; each option sets its own', () => {
  expect(DEFAULT_UPSTREAM_TIMEOUTS).toEqual({ connectMs: 10_000, firstByteMs: 30_000, idleMs: 30_000 });
  expect(parseProxyArguments(['--target', TARGET])).toMatchObject({ port: 8089, timeouts: DEFAULT_UPSTREAM_TIMEOUTS });
  expect(
    parseProxyArguments([
      '--target',
      TARGET,
      '--connect-timeout-ms',
      '250',
      '--first-byte-timeout-ms=1500',
      '--idle-timeout-ms',
      '2147483647',
    ]),
  ).toMatchObject({ timeouts: { connectMs: 250, firstByteMs: 1500, idleMs: 2_147_483_647 } });
});

for (const [args, line] of [
  [['--connect-timeout-ms', '0'], '--connect-timeout-ms must be a whole number of milliseconds from 1 to 2147483647, not "0"'],
  [['--idle-timeout-ms', 'soon'], '--idle-timeout-ms must be a whole number of milliseconds from 1 to 2147483647, not "soon"'],
  [['--first-byte-timeout-ms', '1.5'], '--first-byte-timeout-ms must be a whole number of milliseconds from 1 to 2147483647, not "1.5"'],
  [['--idle-timeout-ms', '2147483648'], '--idle-timeout-ms must be a whole number of milliseconds from 1 to 2147483647, not "2147483648"'],
  [['--idle-timeout-ms='], 'option --idle-timeout-ms needs a value'],
  [['--idle-timeout-ms', '--port', '0'], 'option --idle-timeout-ms needs a value: --port is an option, not its value'],
  [['--verbose'], 'unknown option --verbose'],
  [['-p', '80'], 'unknown option -p'],
  [['extra'], 'unexpected argument extra'],
] as const) {
  test(`parseProxyArguments --target URL ${args.join(' ')}: one line, "${line}"`, () => {
    expect(parseProxyArguments(['--target', TARGET, ...args])).toBe(line);
  });
}

test('parseProxyArguments: a missing value, and a missing --target, each in one line', () => {
  expect(parseProxyArguments(['--target'])).toBe('option --target needs a value');
  expect(parseProxyArguments(['--port', '0'])).toBe('--target is required: the base URL of the API to forward to (http:// or https://)');
});

test("proxy --help names every option the proxy reads, the timeouts with their defaults, under today's usage line", () => {
  const help = commandHelp(findCommand('proxy')!);
  // The synopsis wraps onto a second line.
  expect(help.split('\n').slice(0, 2)).toEqual([
    'Usage: npm run conformance -- proxy --target URL [--chat-target URL] [--port N] [--har OUT.har]',
    '                              [--report-every-minutes N]',
  ]);
  for (const option of PROXY_OPTIONS) expect(help).toContain(option);
  expect(help.replace(/\s+/g, ' ')).toContain('--connect-timeout-ms MS How long to wait for a connection to the target (default 10000).');
  expect(help.replace(/\s+/g, ' ')).toContain(
    '--first-byte-timeout-ms MS How long the target may take to begin its answer (default 30000).',
  );
  expect(help.replace(/\s+/g, ' ')).toContain(
    '--idle-timeout-ms MS How long the target may go quiet in the middle of an answer (default 30000).',
  );
});

test('proxy --target URL --connect-timeout-ms 0: exit 2 with one line naming the option, and the usage', async () => {
  const run = await runScript(CLI.conformance, ['proxy', '--target', TARGET, '--connect-timeout-ms', '0'], {}, 30_000);
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([
    'proxy: --connect-timeout-ms must be a whole number of milliseconds from 1 to 2147483647, not "0"',
    'Usage: npm run conformance -- proxy --target URL [--chat-target URL] [--port N] [--har OUT.har] [--report-every-minutes N]   (port 0: any free port; default 8089)',
  ]);
  expect(run.stdout).toBe('');
});

test('a target that does not answer in time, behind `proxy --first-byte-timeout-ms 500 --idle-timeout-ms 500`: 504 or the answer cut off within the timeout, counted on the console and in the reports, which name the apikey header every request carried', async () => {
  const target = await startHostileTarget();
  const reports = freshDir('proxy-bounds-reports');
  try {
    const proxy = await startProxyProcess(
      ['--target', target.base, '--port', '0', '--first-byte-timeout-ms', '500', '--idle-timeout-ms', '500'],
      { REPORT_DIR: reports },
    );
    const t0 = performance.now();
    const never = await sendRaw(`${proxy.base}/never`, 'GET', ['apikey', 'key-never-answered']);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(never.status).toBe(504);
    expect(never.body.toString()).toContain('did not begin its answer to GET /v3/never within 500 ms of the request');
    await expect(sendRaw(`${proxy.base}/stall`, 'GET', ['apikey', 'key-never-answered'])).rejects.toThrow();
    expect((await sendRaw(`${proxy.base}/ok`, 'GET', ['apikey', 'key-never-answered'])).status).toBe(200);
    const exit = await proxy.stop('SIGTERM');
    // Nothing of the three operations was judged: exit 3, and yet every request carried apikey.
    expect(exit.code, exit.stdout + exit.stderr).toBe(3);
    expect(exit.stdout).toContain(
      '2 requests the target did not answer in time (504 from the proxy, or an answer cut off once begun), not judged: 1 on the first-byte timeout (500 ms, --first-byte-timeout-ms), 1 on the idle timeout (500 ms, --idle-timeout-ms); did not begin its answer to GET /v3/never within 500 ms of the request (the first-byte timeout, --first-byte-timeout-ms); went quiet for 500 ms in the middle of its answer to GET /v3/stall (the idle timeout, --idle-timeout-ms)',
    );
    expect(exit.stdout).toContain('Redacted from the reports: apikey.');
    expect(exit.stdout).not.toContain('no credential header was present');
    expect(exit.stdout).toMatch(/^peak memory of the proxy: \d+ MiB resident$/m);
    const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as {
      passive: { ignored: Record<string, number>; redacted: string[] };
    };
    expect(
      results.passive.ignored['requests the target did not answer in time (504 from the proxy, or an answer cut off once begun)'],
    ).toBe(2);
    expect(results.passive.redacted).toEqual(['apikey']);
    for (const file of ['results.json', 'index.html', 'summary.md'])
      expect(readFileSync(join(reports, file), 'utf8')).not.toContain('key-never-answered');
  } finally {
    await target.close();
  }
});
