// A curl line names the configured key as $API_KEY (issue 54): a user whose key is in .env does not
// have it in the shell, and pasted as printed the line sent an empty key and got
// AUTH_ERR_EMPTY_APIKEY. Where the line is printed, the line after it says how to get the key
// there; the README says the same. Pasted into bash where .env is, after that command, the line
// sends the key from .env.
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENV_INTO_SHELL, reproduceLines, type Exchange } from '../../core/transport/exchange.ts';
import { describeViolations } from '../../core/run/verdict.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';
import { exchange } from '../checks/exchanges.ts';

const withHeaders = (headers: Record<string, string>, variableHeaders?: string[]): Exchange => {
  const sent = exchange('listCalls', 401, { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND' } });
  return { ...sent, request: { ...sent.request, headers, ...(variableHeaders ? { variableHeaders } : { variableHeaders: [] }) } };
};

test('a curl line that expands a configured key is followed by how to get it from .env into the shell; any other is not', () => {
  expect(reproduceLines(withHeaders({ apikey: '$API_KEY' }, ['apikey']))).toEqual([
    'Reproduce with:',
    expect.stringMatching(/^curl .*"apikey: \$API_KEY"/),
    '(needs $API_KEY in the shell; from .env: set -a; . ./.env; set +a)',
  ]);
  expect(reproduceLines(withHeaders({ apikey: '$RESTRICTED_API_KEY' }, ['apikey'])).at(-1)).toBe(
    '(needs $RESTRICTED_API_KEY in the shell; from .env: set -a; . ./.env; set +a)',
  );
  // No key sent, a key the test chose, or a recorded value that only reads "$API_KEY": nothing to get.
  expect(reproduceLines(withHeaders({}))).toHaveLength(2);
  expect(reproduceLines(withHeaders({ apikey: '$INVALID_KEY' }, ['apikey']))).toHaveLength(2);
  expect(reproduceLines(withHeaders({ apikey: '$API_KEY' }))).toHaveLength(2);
});

test('a failure message gives the hint right under its curl line', () => {
  const sent = exchange('listCalls', 500, {});
  const message = describeViolations([
    { check: 'success_status', requirement: 'CALLS-LIST-OK', title: 't', expected: 'e', received: 'r', exchange: sent },
  ]);
  expect(message).toMatch(
    / {2}Reproduce with:\n {2}curl [^\n]+\n {2}\(needs \$API_KEY in the shell; from \.env: set -a; \. \.\/\.env; set \+a\)/,
  );
});

test('pasted into bash where .env is, after the hint, the curl line sends the key from .env; before it, an empty one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'key-hint-'));
  try {
    writeFileSync(join(dir, '.env'), 'API_KEY=key-from-dotenv\n');
    const curl = reproduceLines(withHeaders({ apikey: '$API_KEY' }, ['apikey']))[1]!;
    // curl, a function that prints the header it was given.
    const paste = (lines: string[]) =>
      spawnSync(
        'bash',
        ['-c', ['curl() { while [ $# -gt 0 ]; do [ "$1" = -H ] && printf "%s\\n" "$2"; shift; done; }', ...lines].join('\n')],
        {
          cwd: dir,
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '' },
        },
      ).stdout;
    expect(paste([curl])).toBe('apikey: \n');
    expect(paste([ENV_INTO_SHELL, curl])).toBe('apikey: key-from-dotenv\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the README and docs/reports.md say how to get the key into the shell, where they speak of the curl line', () => {
  for (const doc of ['README.md', 'docs/reports.md'])
    expect(readFileSync(join(PROJECT_ROOT, doc), 'utf8'), doc).toContain(`\`${ENV_INTO_SHELL}\``);
});
