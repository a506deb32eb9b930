// `npm run checks` (tests/static-checks.ts): the npm scripts it names run at once, each one's
// output kept whole, and every one that failed is reported with its status.
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChecks, STATIC_CHECKS } from '../static-checks.ts';
import packageJson from '../../package.json' with { type: 'json' };

test('the checks npm test runs first are the project’s own scripts, all of them', () => {
  const scripts: Record<string, string> = packageJson.scripts;
  for (const script of STATIC_CHECKS) expect(scripts[script], script).toBeDefined();
  expect(scripts.test).toMatch(/^npm run checks && /);
  // Nothing the sequential lint ran is left out of the checks.
  expect(scripts.lint).toBe('npm run lint:code && npm run lint:format');
});

test('each script runs at once beside the others, its output kept whole, its status reported', async () => {
  const project = mkdtempSync(join(tmpdir(), 'static-checks-'));
  try {
    // Each script leaves its mark and waits for the others' (10 s at most): one that ran alone says so.
    const meetThen = (name: string, code: number, said: string) =>
      `node -e "const fs = require('fs'); fs.writeFileSync('${name}.mark', ''); const until = Date.now() + 10000; ` +
      `const wait = () => ['good', 'bad', 'worse'].every((other) => fs.existsSync(other + '.mark')) ` +
      `? (console.error('${said}'), process.exit(${code})) : Date.now() > until ? (console.error('ran alone'), process.exit(9)) : setTimeout(wait, 20); wait();"`;
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        private: true,
        scripts: { good: meetThen('good', 0, 'all fine'), bad: meetThen('bad', 3, 'line 1 is wrong'), worse: meetThen('worse', 1, 'no') },
      }),
    );
    const ended: string[] = [];
    const outcomes = await runChecks(['good', 'bad', 'worse'], project, ({ script }) => ended.push(script));
    expect(outcomes.map(({ script, status, output }) => ({ script, status, output }))).toEqual([
      { script: 'good', status: 0, output: 'all fine\n' },
      { script: 'bad', status: 3, output: 'line 1 is wrong\n' },
      { script: 'worse', status: 1, output: 'no\n' },
    ]);
    expect(ended.sort()).toEqual(['bad', 'good', 'worse']);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
