// Runs replay: the same seed against the same data sends the same requests, and the replay line a
// property failure prints reproduces that failure. The suite also splits with Playwright's shards.
import { test, expect } from '@playwright/test';
import { runSuite, specsOf } from '../runner/run-suite.ts';
import { startBrokenTarget, type ProxiedRequest } from './breaking-proxy.ts';

test('the same seed against the same data sends the same requests', async () => {
  const sent: string[] = [];
  const target = await startBrokenTarget({
    request: (request: ProxiedRequest) => (
      sent.push(
        `${request.method} ${request.url} ${Object.keys(request.headers)
          .filter((name) => name.toLowerCase() === 'apikey')
          .join()}`,
      ),
      request
    ),
  });
  try {
    const runs: string[][] = [];
    for (let run = 0; run < 2; run += 1) {
      sent.length = 0;
      const result = await runSuite(['--project=conformance', '--reporter=json'], { ...target.env, CONFORMANCE_SEED: '4242' }, 180_000);
      expect(result.code, result.stderr).toBe(0);
      runs.push([...sent].sort());
    }
    expect(runs[0]!.length).toBeGreaterThan(100);
    expect(runs[1]).toEqual(runs[0]);
  } finally {
    await target.close();
  }
});

test('the replay line of a property failure reproduces it: same seed, same path, same counterexample', async () => {
  const target = await startBrokenTarget({
    request: (request) => {
      const url = new URL(request.url, 'http://proxy');
      url.searchParams.delete('mode');
      return { ...request, url: `${url.pathname}${url.search}` };
    },
  });
  try {
    const messageOf = (stdout: string) =>
      specsOf(JSON.parse(stdout))
        .flatMap((spec) =>
          spec.tests[0]!.results.flatMap((result) =>
            ((result as { errors?: Array<{ message?: string }> }).errors ?? []).map((error) => error.message ?? ''),
          ),
        )
        .join('\n');
    const first = await runSuite(
      ['--project=conformance', '--reporter=json', '--grep', 'CALLS-LIST-FILTER-MODE '],
      { ...target.env, CONFORMANCE_SEED: '77' },
      120_000,
    );
    expect(first.code, first.stderr).toBe(1);
    const message = messageOf(first.stdout);
    const replay = /Replay with: CONFORMANCE_SEED=(\d+) CONFORMANCE_PATH=([\d:]+) /.exec(message);
    const counterexample = /Counterexample: (.+)/.exec(message);
    expect(replay, message.slice(0, 2000)).not.toBeNull();
    expect(counterexample, message.slice(0, 2000)).not.toBeNull();

    const again = await runSuite(
      ['--project=conformance', '--reporter=json', '--grep', 'CALLS-LIST-FILTER-MODE '],
      { ...target.env, CONFORMANCE_SEED: replay![1]!, CONFORMANCE_PATH: replay![2]! },
      120_000,
    );
    expect(again.code, again.stderr).toBe(1);
    expect(messageOf(again.stdout)).toContain(`Counterexample: ${counterexample![1]}`);
  } finally {
    await target.close();
  }
});

test('the shards of the suite together hold every test once', async () => {
  const titles = async (args: string[]) => {
    const run = await runSuite(['--project=conformance', '--list', '--reporter=json', ...args]);
    expect(run.code, run.stderr).toBe(0);
    return specsOf(JSON.parse(run.stdout)).map((spec) => spec.title);
  };
  const whole = await titles([]);
  const first = await titles(['--shard=1/2']);
  const second = await titles(['--shard=2/2']);
  expect(first.length).toBeGreaterThan(0);
  expect(second.length).toBeGreaterThan(0);
  expect([...first, ...second].sort()).toEqual([...whole].sort());
});
