// `npm ci` in the clone ends without npm's "install scripts not yet covered by allowScripts" warning
// (issue 54): package.json's allowScripts decides every dependency that has an install script.
// `npm install-scripts ls` reads the same field against the installed tree, as `npm ci` does, in
// a second instead of a minute. npm before 11.16 has neither the field nor the command, nor the warning.
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../runner/run-suite.ts';

test('npm has no install script of a dependency left undecided by package.json allowScripts', () => {
  const listed = spawnSync('npm', ['install-scripts', 'ls'], { cwd: PROJECT_ROOT, encoding: 'utf8', env: process.env });
  const output = `${listed.stdout}${listed.stderr}`;
  test.skip(/Unknown command|not a valid command/i.test(output), `this npm has no install-scripts command: ${output.trim()}`);
  expect(listed.status, output).toBe(0);
  expect(output).toContain('No packages with unreviewed install scripts.');
});
