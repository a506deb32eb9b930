// Every reproduce line is safe to paste (issue 36). A curl line carries values of traffic the suite
// did not choose (method, URL path and query, header names and values, body) into the reader's
// shell, and passive reports print them for recorded, untrusted traffic. Each line here is pasted
// into real shells (bash and zsh as a script and as an interactive paste, with history expansion;
// sh and dash) with `curl` a function that prints its arguments: nothing may run (a marker file
// stays absent), every value must come back exactly, and only the variables the suite put in place
// of a key ($API_KEY, $AUTHORIZATION, $COOKIE) expand, from the environment. The reports show the
// same lines, the HTML escaped for HTML.
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { curlFor, NO_CURL_LINE, type Exchange } from '../../core/transport/exchange.ts';
import { shellWord } from '../../core/results/shell-quote.ts';
import { redactRecorded } from '../../passive/redaction.ts';
import type { RecordedExchange } from '../../passive/recorded-exchange.ts';
import { createPassiveJudge } from '../../passive/judge.ts';
import { readHar } from '../../passive/har-reader.ts';
import { buildPassiveReport } from '../../passive/passive-report.ts';
import { loadPassiveConfig } from '../../core/run/config.ts';
import { htmlEscape, renderHtml } from '../../reports/render-html.ts';
import { redactorFor } from '../../reports/redact.ts';
import { CLI, readReports } from './report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { harEntry, writeHar } from '../passive/har-entries.ts';

const WORK = mkdtempSync(join(tmpdir(), 'reproduce-lines-'));
/** Created by any value that runs: every hostile value below tries to. */
const MARKER = join(WORK, 'pwned');
/** The environment the lines are pasted into: the suite's variables, and one a recording must not reach. */
const ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: WORK,
  LANG: 'C.UTF-8',
  API_KEY: 'key-from-the-environment',
  AUTHORIZATION: 'Bearer token-from-the-environment',
  COOKIE: 'c=cookie-from-the-environment',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-from-the-environment',
};
const expanded = (value: string) => value.replace(/^\$([A-Za-z_][A-Za-z0-9_]*)/, (_, name: string) => ENV[name] ?? '');

/** Values that try to run something, to expand, to end a word or a line, or to act on a terminal. */
const HOSTILE = [
  `$(touch ${MARKER})`,
  `\`touch ${MARKER}\``,
  `x'; touch ${MARKER}; echo '`,
  `x"; touch ${MARKER}; echo "`,
  `x\ntouch ${MARKER}\n`,
  `x\r\ntouch ${MARKER}`,
  `$API_KEY and \${API_KEY} and $HOME and $1`,
  `it's "quoted" \\ back\\slash \\' \\" '\\''`,
  'tab\there',
  '\u0001\u0007\u001b[31mred\u001b]52;c;dG91Y2g=\u0007\u007f',
  'next line\u0085, separators\u2028\u2029, bidi \u202eelif\u202c \u2066x\u2069, zero width\u200b\ufeff',
  'é 漢字 😀 👩‍💻',
  '!! !$ !-1 ^a^b',
  `; | & && || > < * ? [a] {a,b} ~ # %`,
  '=touch',
  `-o ${MARKER}`,
  "'",
  "''",
  '"',
  '\\',
  '',
];

/** A request as the suite would record it, with `value` in every place a curl line holds. */
function hostileExchange(value: string, body: unknown = value): Exchange {
  return {
    operation: 'getCall',
    request: {
      method: value,
      url: `http://127.0.0.1:8080/v3/calls/${value}?q=${value}`,
      headers: { apikey: '$API_KEY', [value]: 'named', 'x-value': value, 'x-text': '$API_KEY' },
      variableHeaders: ['apikey'],
      body,
    },
    response: { status: 200, headers: {}, body: undefined, text: '', isJson: false },
    durationMs: 1,
  };
}

/** The arguments curl must receive for the exchange: its values exactly, the suite's variables expanded. */
function argvOf(exchange: Exchange): string[] {
  const { method, url, headers, body, variableHeaders = [] } = exchange.request;
  return [
    '-sS',
    ...(/[[\]{}]/.test(url) ? ['-g'] : []),
    '-X',
    method,
    // curl sends `name;` as the header with no value, where `name: ` would remove it.
    ...Object.entries(headers).flatMap(([name, value]) => [
      '-H',
      variableHeaders.includes(name) ? `${name}: ${expanded(value)}` : value.trim() === '' ? `${name};` : `${name}: ${value}`,
    ]),
    ...(body === undefined ? [] : ['--data-raw', typeof body === 'string' ? body : JSON.stringify(body)]),
    ...(url.startsWith('-') ? ['--url'] : []),
    url,
  ];
}

interface Shell {
  name: string;
  /** Runs the script and gives what it printed. */
  run(script: string): Buffer;
  /** A shell without $'…' reads `$` and the escape as text: a different value, never a command. */
  lacksAnsiC?: boolean;
}

const spawned = (command: string, args: string[], input?: string): Buffer => {
  const result = spawnSync(command, args, { cwd: WORK, env: ENV, input, maxBuffer: 64 * 2 ** 20, timeout: 30_000 });
  if (result.error) throw result.error;
  return result.stdout;
};
const found = (command: string) => spawnSync(command, ['-c', 'true'], { env: ENV }).status === 0;
const path = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
const lacksAnsiC = (command: string) => spawnSync(command, ['-c', `printf %s $'a'`], { encoding: 'utf8' }).stdout !== 'a';

/** bash and sh always; dash when sh is not it; zsh when installed. Interactive shells read the script as a paste. */
const SHELLS: Shell[] = [
  { name: 'bash -c', run: (script) => spawned('bash', ['-c', script]) },
  { name: 'bash, pasted interactively', run: (script) => spawned('bash', ['--norc', '--noprofile', '-i'], `set -H\n${script}\n`) },
  { name: 'sh -c', run: (script) => spawned('sh', ['-c', script]), lacksAnsiC: lacksAnsiC('sh') },
  ...(found('dash') && realpathSync(path('dash')) !== realpathSync(path('sh'))
    ? [{ name: 'dash -c', run: (script: string) => spawned('dash', ['-c', script]), lacksAnsiC: lacksAnsiC('dash') }]
    : []),
  ...(found('zsh')
    ? [
        { name: 'zsh -c', run: (script: string) => spawned('zsh', ['-f', '-c', script]) },
        { name: 'zsh, pasted interactively', run: (script: string) => spawned('zsh', ['-f', '-i'], `${script}\n`) },
      ]
    : []),
];

/**
 * Each command line pasted into `shell` after functions that stand in for the commands: each call
 * prints its argument count and arguments, NUL-separated. Returns the arguments of each call.
 */
function pasted(shell: Shell, lines: readonly string[], commands: readonly string[] = ['curl']): string[][] {
  const functions = commands.map((command) => `${command}() { printf '%s\\0' "$#" "$@"; }`).join('\n');
  const out = shell.run(`${functions}\n${lines.join('\n')}\n`).toString('utf8');
  const fields = out.split('\0');
  const calls: string[][] = [];
  for (let at = 0; at < fields.length - 1;) {
    const count = Number(fields[at]);
    calls.push(fields.slice(at + 1, at + 1 + count));
    at += 1 + count;
  }
  return calls;
}

const ESCAPED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;
const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };
/** What a sh without $'…' makes of a value the line wrote with it: `$` and the escape, as text. */
const withoutAnsiC = (value: string) =>
  value.replace(
    ESCAPED,
    (run) =>
      `$${[...run].map((character) => NAMED[character] ?? [...Buffer.from(character)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('')).join('')}`,
  );

function expectPastedAs(shell: Shell, got: string[][], expected: string[][]): void {
  expect(got, `${shell.name}: one call per line`).toHaveLength(expected.length);
  expected.forEach((argv, line) => {
    expect(got[line], `${shell.name}, line ${line + 1}: one argument per value`).toHaveLength(argv.length);
    argv.forEach((word, index) => {
      const readings = shell.lacksAnsiC ? [word, withoutAnsiC(word)] : [word];
      expect(readings, `${shell.name}, line ${line + 1}, argument ${index + 1}`).toContainEqual(got[line]![index]);
    });
  });
  expect(existsSync(MARKER), `${shell.name} ran something`).toBe(false);
}

// Each test is a group of its own (fullyParallel), and hooks run around each group: a worker that
// runs a second test of this file after the first one's afterAll needs the folder again.
test.beforeAll(() => mkdirSync(WORK, { recursive: true }));
test.afterAll(() => rmSync(WORK, { recursive: true, force: true }));

test('a hostile value in every place of a curl line (method, path, query, header name and value, body) comes back exactly from every shell, and runs nothing', () => {
  const exchanges = HOSTILE.flatMap((value) => [hostileExchange(value), hostileExchange(value, { note: value, [value]: [value] })]);
  exchanges.push({ ...hostileExchange('GET'), request: { ...hostileExchange('GET').request, url: `-o${MARKER}` } });
  const lines = exchanges.map(curlFor);
  for (const line of lines) {
    // One line, and nothing in it that acts on a terminal or reads otherwise than it runs.
    expect(line).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    expect(line.startsWith('curl ')).toBe(true);
  }
  const expected = exchanges.map(argvOf);
  for (const shell of SHELLS) expectPastedAs(shell, pasted(shell, lines), expected);
});

test('only the variables the suite placed expand: a value that reads $API_KEY stays text', () => {
  const line = curlFor(hostileExchange('GET'));
  expect(line).toContain(`-H "apikey: $API_KEY"`);
  expect(line).toContain(`-H 'x-text: $API_KEY'`);
  for (const shell of SHELLS) {
    const [argv] = pasted(shell, [line]);
    expect(argv).toContain(`apikey: ${ENV.API_KEY}`);
    expect(argv).toContain('x-text: $API_KEY');
  }
  // The same header, not marked as the suite's variable, is text too.
  const unmarked = hostileExchange('GET');
  const { variableHeaders: _none, ...request } = unmarked.request;
  expect(curlFor({ ...unmarked, request })).toContain(`-H 'apikey: $API_KEY'`);
});

test('a word is left bare only when it is plain, any other is quoted; a NUL, which no argument can carry, gives no line at all', () => {
  expect(shellWord('GET')).toBe('GET');
  expect(shellWord('http://127.0.0.1/v3/calls')).toBe(`'http://127.0.0.1/v3/calls'`);
  expect(shellWord("it's")).toBe(`'it'"'"'s'`);
  expect(shellWord('a\nb')).toBe(`'a'$'\\n''b'`);
  expect(shellWord('=touch')).toBe(`'=touch'`);
  expect(shellWord('apikey: ', { variable: 'API_KEY' })).toBe('"apikey: $API_KEY"');
  expect(shellWord('x: ', { variable: 'API_KEY' }, '|cut:12')).toBe(`'x: '"\${API_KEY}"'|cut:12'`);
  expect(() => shellWord('a\0b')).toThrow(RangeError);
  expect(() => shellWord({ variable: '$(touch x)' })).toThrow(RangeError);
  const plain = hostileExchange('GET');
  for (const request of [
    { ...plain.request, method: 'G\0ET' },
    { ...plain.request, url: `${plain.request.url}\0` },
    { ...plain.request, headers: { 'x-\0': 'v' } },
    { ...plain.request, headers: { 'x-value': 'a\0b' } },
    { ...plain.request, body: 'a\0b' },
  ])
    expect(curlFor({ ...plain, request })).toBe(NO_CURL_LINE);
});

/** A recorded exchange as a HAR or the proxy gives it: hostile values everywhere, and real secrets. */
function recordedHostile(): RecordedExchange {
  const runs = `$(touch$IFS${MARKER})`;
  return {
    source: 'traffic.har, entry 1',
    startedAt: '2026-11-26T00:00:00.000Z',
    request: {
      method: 'get',
      url: `https://calls.example.test/${runs}/v3/calls?q=${runs}&b=\`touch$IFS${MARKER}\`&s='x'&t=it's`,
      headers: [
        ['apikey', 'recorded-key-0123456789'],
        ['Authorization', 'Bearer recorded-token-0123456789'],
        ['Cookie', 'c=recorded-cookie-0123456789'],
        ['aws-secret-access-key', 'recorded-aws-0123456789'],
        ['x-text', '$API_KEY and $AWS_SECRET_ACCESS_KEY'],
        ['x-trace', `$(touch ${MARKER}) it's "q" \\`],
        ['x-control', 'a\u0007b\r\nc\td\u007f'],
        [`x-$(touch ${MARKER})`, 'named'],
      ],
      bodyText: JSON.stringify({ note: `$(touch ${MARKER}) it's \`x\` é 漢字 😀\n` }),
    },
    response: { status: 200, headers: [['Content-Type', 'application/json']], bodyText: '{}' },
    durationMs: 1,
  };
}

test("a recorded exchange, redacted: its keys become the suite's variables, which expand; a variable named after the traffic's header does not", () => {
  const { exchange } = redactRecorded(recordedHostile(), 'listCalls');
  // Named as recorded: the header's letter case is part of what the request showed.
  expect(exchange.request.variableHeaders).toEqual(['apikey', 'Authorization', 'Cookie']);
  expect(exchange.request.headers['aws-secret-access-key']).toBe('$AWS_SECRET_ACCESS_KEY');
  const line = curlFor(exchange);
  for (const secret of ['recorded-key', 'recorded-token', 'recorded-cookie', 'recorded-aws']) expect(line).not.toContain(secret);
  const expected = argvOf(exchange);
  expect(expected).toEqual(
    expect.arrayContaining([
      `apikey: ${ENV.API_KEY}`,
      `Authorization: ${ENV.AUTHORIZATION}`,
      `Cookie: ${ENV.COOKIE}`,
      'aws-secret-access-key: $AWS_SECRET_ACCESS_KEY',
      'x-text: $API_KEY and $AWS_SECRET_ACCESS_KEY',
    ]),
  );
  for (const shell of SHELLS) {
    const got = pasted(shell, [line]);
    expectPastedAs(shell, got, [expected]);
    expect(got.flat().join('\n')).not.toContain(ENV.AWS_SECRET_ACCESS_KEY);
  }
});

/** A List Calls answer the schema refuses (a type outside the enum, required fields missing): the passive report has failures with curl lines. */
const brokenList = {
  data: [
    {
      sessionId: 'v1.us.31780434a95d45.1692368168aefba73a1e5938ad7a02f8e61ea1c9a287a08aeb',
      type: 'screenshare',
      mode: 'call',
      status: 'ended',
      receiverType: 'user',
    },
  ],
  meta: { pagination: { total: 1, count: 1, total_pages: 1, current_page: 1 } },
};
const CALLS = 'https://31780434a95d45.call-us.cometchat.io';

/** The curl lines of a report's failure messages, as a reader copies them. */
const curlLines = (messages: readonly string[]) =>
  messages.flatMap((message) => message.split('\n').flatMap((line) => (line.startsWith('  curl ') ? [line.slice(2)] : [])));

test('the passive reports print each line so that it runs nothing when pasted, and the HTML report shows it escaped; so is the rerun line for a file named to run something', async () => {
  const hostile = recordedHostile();
  const file = writeHar(
    [
      harEntry({
        url: hostile.request.url.replace('https://calls.example.test', CALLS),
        headers: Object.fromEntries(hostile.request.headers),
        status: 200,
        body: brokenList,
        requestBody: hostile.request.bodyText!,
      }),
    ],
    `it's $(touch pwned-by-rerun) \`touch pwned-by-rerun\`.har`,
  );
  const dir = join(WORK, 'report');
  const run = await runScript(CLI.conformance, ['har', file], { REPORT_DIR: dir });
  expect(run.code, run.stderr).toBe(1);
  const { results, html } = readReports(dir);
  const lines = curlLines(results.failures.map((failure) => failure.message));
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(html).toContain(htmlEscape(line));

  const { exchange } = redactRecorded(
    { ...hostile, request: { ...hostile.request, url: hostile.request.url.replace('https://calls.example.test', CALLS) } },
    'listCalls',
  );
  const expected = argvOf(exchange);
  const rerun = results.failures[0]!.rerun;
  for (const shell of SHELLS) {
    expectPastedAs(
      shell,
      pasted(shell, lines),
      lines.map(() => expected),
    );
    // In the clone the rerun line is the clone's form (core/results/replay-command.ts).
    expect(pasted(shell, [rerun], ['npm'])).toEqual([['run', 'conformance', '--', 'har', file]]);
    expect(existsSync(join(WORK, 'pwned-by-rerun')), `${shell.name} ran the rerun line's file name`).toBe(false);
  }
  const everything = [run.stdout, run.stderr, JSON.stringify(results), html].join('\n');
  for (const secret of ['recorded-key', 'recorded-token', 'recorded-cookie', 'recorded-aws']) expect(everything).not.toContain(secret);
});

/** The passive report of one recorded List Calls with `headers`, whose answer the schema refuses. */
async function passiveReportOf(headers: Record<string, string>) {
  const judge = createPassiveJudge();
  await readHar(writeHar([harEntry({ url: `${CALLS}/v3/calls?q=$(touch$IFS${MARKER})`, headers, status: 200, body: brokenList })]), judge);
  const { report } = buildPassiveReport(judge.finish(), {
    dir: WORK,
    sources: ['traffic.har'],
    rerun: 'npx calls-conformance har traffic.har',
    env: {},
    config: loadPassiveConfig({}),
  });
  return { report, messages: report.failures.map((failure) => failure.message) };
}

test("a secret the traffic chose to match a line's quoting cannot unbalance it: the report's redaction runs before the line is quoted, and a line it would still cut into is withheld", async () => {
  // Each of the first two ran `touch` when the report's last redaction pass went over finished lines.
  const attacks: Array<{ withheld: boolean; headers: Record<string, string> }> = [
    // Cut out of `-H "apikey: $API_KEY"`, `$API_KEY"` leaves a double quote open over the rest of the line.
    { withheld: true, headers: { apikey: 'k-0123456789', authorization: '$API_KEY"', 'x-trace': `$(touch ${MARKER})`, 'x-close': "' #" } },
    // Cut out of `-H 'x-a: b' -H 'x-b: …'`, `: b' -H` leaves the quote after it open.
    { withheld: true, headers: { apikey: 'k-0123456789', cookie: `: b' -H`, 'x-a': 'b', 'x-b': `$(touch ${MARKER}) #` } },
    // After `apikey:` the redactor rewrites a run that stops only at quotes and spaces; the value is redacted before it is quoted.
    { withheld: false, headers: { apikey: 'k-0123456789', 'x-note': `apikey: 'X $(touch ${MARKER}) #` } },
  ];
  for (const { headers, withheld } of attacks) {
    const { report, messages } = await passiveReportOf(headers);
    const lines = curlLines(messages);
    for (const shell of SHELLS) {
      expect(pasted(shell, lines)).toHaveLength(lines.length);
      expect(existsSync(MARKER), `${shell.name} ran something`).toBe(false);
    }
    expect(messages.join('\n').includes('(command withheld:'), JSON.stringify(headers)).toBe(withheld);
    expect(lines.length > 0, JSON.stringify(headers)).toBe(!withheld);
    const html = renderHtml(report);
    for (const line of lines) expect(html).toContain(htmlEscape(line));
  }
});

test("the run reports' redactor leaves a line's quoting whole: what it rewrites after `apikey:` never reaches past a quote", () => {
  const exchange = hostileExchange('GET');
  const line = curlFor({ ...exchange, request: { ...exchange.request, headers: { 'x-note': `apikey: 'X $(touch ${MARKER}) #` } } });
  const redacted = redactorFor({ API_KEY: ENV.API_KEY })(line);
  for (const shell of SHELLS) {
    expect(pasted(shell, [redacted])).toHaveLength(1);
    expect(existsSync(MARKER), `${shell.name} ran something`).toBe(false);
  }
  // Written `'\''`, the quote left a backslash outside the quotes, which the redactor took, and `touch` ran.
  expect(line).toContain(`'x-note: apikey: '"'"'X $(touch`);
});
