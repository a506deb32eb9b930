// A value the target says it does not know is the configuration's mistake, not the target's: a run
// with a rotated or mistyped API_KEY, RESTRICTED_API_KEY or ACTING_UID, or with writes allowed a
// GROUP_GUID, MESSAGE_ID or ACTING_UID the target's answer to the tests' own write says it does not
// know (before, NON-CONFORMANT, exit 1, on CHAT-UNREAD-OK and three more), stops before any test with
// exit 2 and one line naming the variable and what the target answered (its status and code, never
// the key), and writes no report: before, a wrong API_KEY gave NON-CONFORMANT, exit 1, "7 MUST
// requirement(s) failed … blocked by CALLS-LIST-OK". A target that refuses every key is stopped the
// same way: the suite cannot tell it from a wrong key. Each run is against the reference on loopback,
// configured as a remote target, as a user runs it.
import { test, expect } from '@playwright/test';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { referenceTargetEnv } from '../runner/run-suite.ts';
import { freshDir, readReports, runConformance, withReference } from './report-runs.ts';
import { STACK_TRACE } from '../suite/stack-trace.ts';
import { OUTSIDER_UID } from '../../reference/fixtures.ts';

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
    variable: 'GROUP_GUID',
    title: 'with writes allowed, a GROUP_GUID the target does not know',
    fault: undefined,
    env: { GROUP_GUID: 'no-such-group' },
    line: /^Configuration error: GROUP_GUID is not a group the target knows: DELETE http:\/\/127\.0\.0\.1:\d+\/v3\/groups\/no-such-group\/conversation\/read with API_KEY, onBehalfOf set to ACTING_UID and messageId MESSAGE_ID \(the write the tests send\) answered status 404 with ERR_GUID_NOT_FOUND, /,
  },
  {
    variable: 'MESSAGE_ID',
    title: "with writes allowed, a MESSAGE_ID that is not in the group's conversation",
    fault: undefined,
    env: { MESSAGE_ID: '999999' },
    line: /^Configuration error: MESSAGE_ID is not a message of GROUP_GUID's conversation: DELETE \S+ with .* answered status 404 with ERR_MESSAGE_ID_NOT_FOUND, /,
  },
  {
    variable: 'ACTING_UID',
    title: 'with writes allowed, an ACTING_UID who is not a member of GROUP_GUID',
    fault: undefined,
    env: { ACTING_UID: OUTSIDER_UID },
    line: /^Configuration error: ACTING_UID is not a member of GROUP_GUID: DELETE \S+ with .* answered status 403 with ERR_NOT_A_MEMBER, /,
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

test("with writes allowed and fixtures the target knows: the preflight's one write goes on, and is listed with the run's writes", async () => {
  const dir = freshDir('report-preflight-write');
  // A read-only test alone: the only write of the run is the preflight's.
  const run = await withReference(undefined, (base) => runConformance(dir, ['--grep', 'CALLS-GET-NOT-FOUND'], referenceTargetEnv(base)));
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const { results } = readReports(dir);
  expect(results.writes).toEqual([
    {
      method: 'DELETE',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v3\/groups\/group-0001\/conversation\/read$/),
      status: 200,
      count: 1,
    },
  ]);
  expect(results.operations.find((operation) => operation.operation === 'markGroupConversationAsUnread')?.requests).toBe(1);
});
