// `npm test` lints the contract with Redocly's linter; this shows the lint step fails when the
// document has an error, so a green lint means something.
import { test, expect } from '@playwright/test';
import { freshDir } from '../fresh-dir.ts';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENAPI_PATH } from '../../openapi/contract.ts';

const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const CONFIG = fileURLToPath(new URL('../../openapi/redocly.yaml', import.meta.url));

function lint(path: string) {
  return spawnSync(process.execPath, [REDOCLY, 'lint', path, '--config', CONFIG], {
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    },
  });
}

test('the linter fails on a contract with a dangling reference', () => {
  const broken = join(freshDir('openapi'), 'broken.openapi.yaml');
  writeFileSync(
    broken,
    readFileSync(OPENAPI_PATH, 'utf8').replace('$ref: "#/components/schemas/CallList"', '$ref: "#/components/schemas/NoSuchSchema"'),
  );

  const result = lint(broken);

  expect(result.status, result.stdout + result.stderr).not.toBe(0);
  expect(result.stdout + result.stderr).toContain('NoSuchSchema');
});
