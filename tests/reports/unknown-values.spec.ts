// A value the target says it does not know is the configuration's mistake, not the target's: a run
// with a rotated or mistyped API_KEY, RESTRICTED_API_KEY or ACTING_UID stops before any test with
// exit 2 and one line naming the variable and what the target answered (its status and code, never
// the key), and writes no report: before, a wrong API_KEY gave NON-CONFORMANT, exit 1, "7 MUST
// requirement(s) failed … blocked by CALLS-LIST-OK". A target that refuses every key is stopped the
// same way: the suite cannot tell it from a wrong key. Each run is against the reference on loopback,
// configured as a remote target, as a user runs it.
import { test, expect } from '@playwright/test';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { referenceTargetEnv } from '../runner/run-suite.ts';
import { freshDir, runConformance, withReference } from './report-runs.ts';
import { STACK_TRACE } from '../suite/stack-trace.ts';

const ROTATED_KEY = 'rotated-key-7f3a9c';

const CASES = [
  {
    variable: 'API_KEY',
    title: 'an API_KEY the target does not know',
    fault: undefined,
    env: { API_KEY: ROTATED_KEY },
    line: /^Configuration error: API_KEY is not a key the target knows: GET http:\/\/127\.0\.0\.1:\d+\/v3\/calls\?perPage=1 with API_KEY answered status 401 with AUTH_ERR_APIKEY_NOT_FOUND, the specification's code for a key that is not valid\. Check API_KEY; nothing was judged\.$/,
  },
  {
    variable: 'RESTRICTED_API_KEY',
    title: 'a RESTRICTED_API_KEY the target does not know',
    fault: undefined,
    env: { RESTRICTED_API_KEY: ROTATED_KEY },
    line: /^Configuration error: RESTRICTED_API_KEY is not a key the target knows: GET \S+ with RESTRICTED_API_KEY answered status 401 with AUTH_ERR_APIKEY_NOT_FOUND, /,
  },
  {
    variable: 'ACTING_UID',
    title: 'with writes allowed, an ACTING_UID the target does not know',
    fault: undefined,
    env: { ACTING_UID: 'no-such-user' },
    line: /^Configuration error: ACTING_UID is not a user the target knows: GET \S+ with API_KEY and onBehalfOf set to ACTING_UID answered status 404 with ERR_UID_NOT_FOUND, /,
  },
  {
    variable: 'API_KEY',
    title: 'a target that refuses every key (fault every-key-refused)',
    fault: 'every-key-refused',
    env: {},
    line: /^Configuration error: API_KEY is not a key the target knows: GET \S+ with API_KEY answered status 401 with AUTH_ERR_APIKEY_NOT_FOUND, /,
  },
] as const;

for (const { variable, title, fault, env, line } of CASES) {
  test(`${title}: exit 2 before any test, one line naming ${variable} and what the target answered, no report, no key`, async () => {
    const dir = freshDir('report-unknown-value');
    // A report an earlier run left must not pass for this run's verdict.
    writeFileSync(join(dir, 'results.json'), '{"verdict":"CONFORMANT","exitCode":0}');
    const run = await withReference(fault, (base) => runConformance(dir, [], { ...referenceTargetEnv(base), ...env }));
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.code, output).toBe(2);
    expect(output.split('\n').filter((text) => text.includes(variable))).toEqual([expect.stringMatching(line)]);
    expect(output).not.toContain('NON-CONFORMANT');
    expect(output).not.toContain(ROTATED_KEY);
    expect(output).not.toMatch(STACK_TRACE);
    expect(existsSync(join(dir, 'results.json'))).toBe(false);
    expect(existsSync(join(dir, 'index.html'))).toBe(false);
  });
}
