// Values a target sends reach no reader raw, and one too deep to walk is judged, not crashed on.
// - Control characters: a target whose every answer after the preflight is a 404 with C1 controls
//   (CSI U+009B, OSC U+009D) in a content-type that mislabels its JSON (so that failures quote it), and error details whose keys hold ESC, BEL, CR,
//   NUL, a bidirectional override and a lone surrogate (Ajv's paths name them). Every byte the run
//   writes (stdout, stderr, the reports, Playwright's test-results) is searched for them raw, in
//   both console modes: each is there as its escape (\u009b), none as itself.
// - A uid with a control character: the suite asks on behalf of the users it read, in a header,
//   where Node refuses such a character before sending. It chooses another uid; it never calls the
//   target unavailable for data it holds.
// - Depth: a list nested 100,000 levels deep (JSON.parse takes it; every recursive walk of it
//   overflows the stack) fails the list's envelope, NON-CONFORMANT with one line, no stack trace.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { json, startScriptedServer } from '../transport/scripted-server.ts';
import { createServer } from '../../reference/server.ts';
import { proxyInFront } from '../runner/proxy-in-front.ts';
import { STACK_TRACE } from './stack-trace.ts';
import { rawControlsIn } from '../hostile/raw-controls.ts';

const GREP = 'CALLS-LIST-OK |AUTH-EMPTY-KEY |CALLS-GET-UNKNOWN-ID ';
const EMPTY_LIST = { data: [], meta: { pagination: { total: 0, count: 0, perPage: 100, currentPage: 1, totalPages: 0 } } };
const HOSTILE_KEY = '\u001b[2J\u0007\r\u0000\u202e\ud800';
/** Latin-1 in a header: Node writes U+0080…U+00FF as single bytes, which is how a target sends C1 controls. */
const HOSTILE_TYPE = 'text/plain; x=\u009b31m\u009d0;title';
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

for (const mode of ['compact', 'verbose']) {
  test(`a target's control characters reach no output raw, ${mode} console: each shown as its escape`, async () => {
    test.setTimeout(120_000);
    const target = await startScriptedServer((request, response, n) => {
      if (request.url?.includes('perPage=1') && n === 0) return json(response, 200, EMPTY_LIST);
      json(
        response,
        404,
        { error: { code: 'ERR_NOT_FOUND', message: 'no', details: { [HOSTILE_KEY]: 'x' } } },
        { 'content-type': HOSTILE_TYPE },
      );
    });
    try {
      const reports = freshDir('report-hostile-values');
      const artefacts = freshDir('artefacts');
      const run = await runScript(
        CLI.conformance,
        ['--grep', GREP, `--output=${artefacts}`],
        { ...referenceTargetEnv(target.base), REPORT_DIR: reports, CONFORMANCE_CONSOLE: mode },
        100_000,
      );
      const results = readReports(reports).results;
      expect(results.verdict, run.stdout.slice(-2000)).toBe('NON-CONFORMANT');
      const written: Array<[string, string]> = [
        ['stdout', run.stdout],
        ['stderr', run.stderr],
        ...[...filesUnder(reports), ...filesUnder(artefacts)]
          .filter((path) => !path.endsWith('.zip') && !path.endsWith('.png'))
          .map((path): [string, string] => [path, readFileSync(path, 'utf8')]),
      ];
      // The hostile values were met and written: as escapes.
      const everything = written.map(([, text]) => text).join('\n');
      expect(everything).toContain('\\u009b31m');
      expect(everything).toMatch(/\\u001b\[2J/);
      expect(rawControlsIn(written)).toEqual([]);
      expect(`${run.stdout}\n${run.stderr}`).not.toMatch(STACK_TRACE);
    } finally {
      await target.close();
    }
  });
}

test('a list nested 100,000 levels deep fails its envelope: NON-CONFORMANT, one line, no stack trace', async () => {
  test.setTimeout(120_000);
  const deep = `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const target = await startScriptedServer((request, response, n) => {
    if (request.url?.includes('perPage=1') && n === 0) return json(response, 200, EMPTY_LIST);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(deep) }).end(deep);
  });
  try {
    const reports = freshDir('report-hostile-deep');
    const run = await runScript(
      CLI.conformance,
      ['--grep', 'CALLS-LIST-OK ', `--output=${freshDir('artefacts')}`],
      { ...referenceTargetEnv(target.base), REPORT_DIR: reports },
      100_000,
    );
    const results = readReports(reports).results;
    expect(results.verdict, run.stdout.slice(-2000)).toBe('NON-CONFORMANT');
    expect(run.code).toBe(1);
    expect(results.requirements.find((requirement) => requirement.id === 'PAGINATION-ENVELOPE')?.status).toBe('fail');
    expect(JSON.stringify(results)).toMatch(/nests more than 64 levels/);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(STACK_TRACE);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/RangeError|Maximum call stack/);
  } finally {
    await target.close();
  }
});

test('a uid holding a control character is not asked about in a header, and the target is not called unavailable for it', async () => {
  test.setTimeout(120_000);
  const reference = createServer({ seed: 3, calls: 300 });
  const upstream = await reference.listen(0);
  // Every answer of the calls service shows user-00006 as "user-00006<BEL>".
  const target = await proxyInFront(upstream, (incoming, outgoing) => {
    void fetch(new URL(incoming.url ?? '/', upstream), {
      method: incoming.method ?? 'GET',
      headers: Object.fromEntries(
        Object.entries(incoming.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      ),
    }).then(async (answer) => {
      const text = (await answer.text()).replaceAll('"user-00006"', '"user-00006\\u0007"');
      outgoing.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
    });
    return true;
  });
  try {
    const reports = freshDir('report-hostile-uid');
    const run = await runScript(
      CLI.conformance,
      ['--grep', 'CALLS-LIST-ON-BEHALF-OF |CALLS-GET-ON-BEHALF-OF ', `--output=${freshDir('artefacts')}`],
      { ...referenceTargetEnv(target.base), REPORT_DIR: reports },
      100_000,
    );
    const results = readReports(reports).results;
    expect(results.verdict, run.stdout.slice(-2000)).toBe('CONFORMANT');
    expect(JSON.stringify(results)).not.toMatch(/unavailable|connection-failed|ERR_INVALID_CHAR/);
    for (const id of ['CALLS-LIST-ON-BEHALF-OF', 'CALLS-GET-ON-BEHALF-OF'])
      expect(results.requirements.find((requirement) => requirement.id === id)?.status, id).toBe('pass');
  } finally {
    await target.close();
    await reference.close();
  }
});
