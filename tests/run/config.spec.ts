// The configuration module: defaults for the embedded reference, the two ways to name a remote
// target, and one clear error naming the variable for each bad value (never echoing a key).
import { test, expect } from '@playwright/test';
import { freshDir } from '../fresh-dir.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  environment,
  loadConfig,
  loadPassiveConfig,
  redactedConfig,
  REFERENCE_URL_VARIABLE,
  withEmbeddedAddress,
  withRuns,
} from '../../core/run/config.ts';
import { DEMO_KEYS, UNREAD_FIXTURE } from '../../reference/fixtures.ts';

const remote = { CALLS_BASE_URL: 'https://calls.example.test/v3', CHAT_BASE_URL: 'https://chat.example.test/v3', API_KEY: 'k-123' };

function errorFor(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`no configuration error for ${JSON.stringify(env)}`);
}

test('with nothing configured the embedded reference is the target, with its demo keys and fixtures', () => {
  const config = loadConfig({});
  expect(config.target).toEqual({
    kind: 'embedded',
    seed: 1,
    calls: 1000,
    readings: 'entries',
    getEnvelope: 'data-object',
    alternatives: [],
  });
  expect(config).toMatchObject({ retries: 1, expectations: undefined, baseline: undefined });
  expect(config.apiKey).toBe(DEMO_KEYS.fullAccess);
  expect(config.restrictedApiKey).toBe(DEMO_KEYS.readOnly);
  expect(config.allowWrites).toBe(true);
  expect(config.unread).toEqual(UNREAD_FIXTURE);
  expect(config.callsBaseUrl).toBeUndefined();
  expect(Object.isFrozen(config)).toBe(true);
});

test('REFERENCE_LIVE makes the embedded reference living at that many new calls a second; unset, it stands still', () => {
  expect(loadConfig({ REFERENCE_LIVE: '0.2' }).target).toEqual({
    kind: 'embedded',
    seed: 1,
    calls: 1000,
    readings: 'entries',
    getEnvelope: 'data-object',
    alternatives: [],
    live: 0.2,
  });
  expect(loadConfig({ REFERENCE_LIVE: '50' }).target).toMatchObject({ live: 50 });
  expect(loadConfig({}).target).not.toHaveProperty('live');
});

test('REFERENCE_ANSWER_AGE makes the embedded reference answer List Calls and Get Call old, as its --answer-age does; unset, every answer is fresh', () => {
  expect(loadConfig({ REFERENCE_ANSWER_AGE: 'list=cache:10,get=replica:5' }).target).toMatchObject({
    answerAge: 'list=cache:10,get=replica:5',
  });
  expect(loadConfig({ REFERENCE_ANSWER_AGE: ' get=replica:5, list=cache:10 ' }).target).toMatchObject({
    answerAge: 'list=cache:10,get=replica:5',
  });
  expect(loadConfig({ REFERENCE_ANSWER_AGE: 'get=replica:0' }).target).toMatchObject({ answerAge: 'get=replica:0' });
  expect(loadConfig({}).target).not.toHaveProperty('answerAge');
  const error = errorFor({ REFERENCE_ANSWER_AGE: 'list=stale:10' });
  expect(error.message).toBe(
    'REFERENCE_ANSWER_AGE must be OPERATION=MODE:SECONDS, comma-separated, each operation at most once: OPERATION list or get, MODE replica or cache, SECONDS whole from 0 to 600 (such as list=cache:10,get=replica:5) (got "list=stale:10")',
  );
});

test("REFERENCE_SETTLE_DELAY says over how many seconds a living reference settles each call, as its --settle-delay does; SETTLE_SECONDS is the suite's horizon, 300 by default", () => {
  expect(loadConfig({ REFERENCE_LIVE: '1', REFERENCE_SETTLE_DELAY: '2-15' }).target).toMatchObject({ live: 1, settleDelay: '2-15' });
  expect(loadConfig({ REFERENCE_SETTLE_DELAY: '4' }).target).toMatchObject({ settleDelay: '4-4' });
  expect(loadConfig({}).target).not.toHaveProperty('settleDelay');
  expect(loadConfig({}).settleSeconds).toBe(300);
  expect(loadConfig({ SETTLE_SECONDS: '900' }).settleSeconds).toBe(900);
});

test('the embedded reference address reported at start-up becomes both base addresses', () => {
  const config = loadConfig({
    CONFORMANCE_REFERENCE_URL: 'http://127.0.0.1:4321/v3',
    REFERENCE_CALLS: '50',
    REFERENCE_SEED: '9',
    REFERENCE_READINGS: 'deployment',
    REFERENCE_GET_ENVELOPE: 'data-array',
    REFERENCE_ALTERNATIVES: 'page-size-limit, participants-count-people',
  });
  expect(config.callsBaseUrl).toBe('http://127.0.0.1:4321/v3');
  expect(config.chatBaseUrl).toBe('http://127.0.0.1:4321/v3');
  expect(config.target).toEqual({
    kind: 'embedded',
    seed: 9,
    calls: 50,
    readings: 'deployment',
    getEnvelope: 'data-array',
    alternatives: ['page-size-limit', 'participants-count-people'],
  });
});

test('a remote target by base addresses is read-only by default, with trailing slashes tolerated', () => {
  const config = loadConfig({ ...remote, CALLS_BASE_URL: 'https://calls.example.test/v3/' });
  expect(config.target).toEqual({ kind: 'remote', source: 'base-urls' });
  expect(config.callsBaseUrl).toBe('https://calls.example.test/v3');
  expect(config.allowWrites).toBe(false);
  expect(config.restrictedApiKey).toBeUndefined();
});

test('trace headers are sent unless TRACE_HEADERS=false', () => {
  expect(loadConfig({}).traceHeaders).toBe(true);
  expect(loadConfig({ TRACE_HEADERS: 'FALSE' }).traceHeaders).toBe(false);
  expect(loadConfig({ TRACE_HEADERS: 'true' }).traceHeaders).toBe(true);
});

test('APP_ID and REGION build the deployment addresses of both services', () => {
  const config = loadConfig({ APP_ID: '31780434a95d45', REGION: 'eu', API_KEY: 'k' });
  expect(config.callsBaseUrl).toBe('https://31780434a95d45.call-eu.cometchat.io/v3');
  expect(config.chatBaseUrl).toBe('https://31780434a95d45.api-eu.cometchat.io/v3');
});

test('each bad value is refused with a message that starts with the variable name', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ ...remote, CALLS_BASE_URL: 'ftp://calls.example.test/v3' }, 'CALLS_BASE_URL'],
    [{ ...remote, CALLS_BASE_URL: 'https://calls.example.test/v2' }, 'CALLS_BASE_URL'],
    [{ ...remote, CHAT_BASE_URL: 'not a url' }, 'CHAT_BASE_URL'],
    [{ CALLS_BASE_URL: remote.CALLS_BASE_URL, API_KEY: 'k' }, 'CHAT_BASE_URL'],
    [{ ...remote, APP_ID: 'abc', REGION: 'us' }, 'CALLS_BASE_URL'],
    [{ APP_ID: 'abc', REGION: 'mars', API_KEY: 'k' }, 'REGION'],
    [{ APP_ID: 'abc', API_KEY: 'k' }, 'REGION'],
    [{ REGION: 'us', API_KEY: 'k' }, 'APP_ID'],
    [{ APP_ID: 'a.b', REGION: 'us', API_KEY: 'k' }, 'APP_ID'],
    [{ CALLS_BASE_URL: remote.CALLS_BASE_URL, CHAT_BASE_URL: remote.CHAT_BASE_URL }, 'API_KEY'],
    [{ ...remote, RESTRICTED_API_KEY: 'k-123' }, 'RESTRICTED_API_KEY'],
    [{ ALLOW_WRITES: 'maybe' }, 'ALLOW_WRITES'],
    [{ ...remote, ALLOW_WRITES: 'true' }, 'GROUP_GUID'],
    [{ ...remote, ALLOW_WRITES: 'true', GROUP_GUID: 'g' }, 'MESSAGE_ID'],
    [{ ...remote, ALLOW_WRITES: 'true', GROUP_GUID: 'g', MESSAGE_ID: '7' }, 'ACTING_UID'],
    [{ MESSAGE_ID: 'seven' }, 'MESSAGE_ID'],
    [{ REQUEST_TIMEOUT_MS: '10s' }, 'REQUEST_TIMEOUT_MS'],
    [{ REFERENCE_CALLS: '0' }, 'REFERENCE_CALLS'],
    [{ REFERENCE_SEED: '-1' }, 'REFERENCE_SEED'],
    [{ REFERENCE_READINGS: 'sums' }, 'REFERENCE_READINGS'],
    [{ REFERENCE_LIVE: '0' }, 'REFERENCE_LIVE'],
    [{ REFERENCE_LIVE: 'fast' }, 'REFERENCE_LIVE'],
    [{ REFERENCE_LIVE: '51' }, 'REFERENCE_LIVE'],
    [{ REFERENCE_LIVE: '-1' }, 'REFERENCE_LIVE'],
    [{ REFERENCE_SETTLE_DELAY: '15-2' }, 'REFERENCE_SETTLE_DELAY'],
    [{ REFERENCE_SETTLE_DELAY: 'soon' }, 'REFERENCE_SETTLE_DELAY'],
    [{ REFERENCE_SETTLE_DELAY: '2-900' }, 'REFERENCE_SETTLE_DELAY'],
    [{ REFERENCE_ANSWER_AGE: 'list=cache:601' }, 'REFERENCE_ANSWER_AGE'],
    [{ REFERENCE_ANSWER_AGE: 'list=cache:10,list=replica:5' }, 'REFERENCE_ANSWER_AGE'],
    [{ REFERENCE_ANSWER_AGE: 'unread=cache:10' }, 'REFERENCE_ANSWER_AGE'],
    [{ SETTLE_SECONDS: 'five minutes' }, 'SETTLE_SECONDS'],
    [{ SETTLE_SECONDS: '-1' }, 'SETTLE_SECONDS'],
    [{ REFERENCE_GET_ENVELOPE: 'data' }, 'REFERENCE_GET_ENVELOPE'],
    [{ REFERENCE_ALTERNATIVES: 'page-size-limit,people' }, 'REFERENCE_ALTERNATIVES'],
    [{ PAGE_SIZE_PARAMETER: 'per page' }, 'PAGE_SIZE_PARAMETER'],
    [{ PAGE_SIZE_PARAMETER: '$(id)' }, 'PAGE_SIZE_PARAMETER'],
    [{ CONFORMANCE_RETRIES: 'twice' }, 'CONFORMANCE_RETRIES'],
    [{ CONFORMANCE_RETRIES: '11' }, 'CONFORMANCE_RETRIES'],
    [{ BASELINE: '/no/such/results.json' }, 'BASELINE'],
    [{ CONFORMANCE_EXPECTATIONS: '/no/such/known-failures.yaml' }, 'CONFORMANCE_EXPECTATIONS'],
    [{ REQUEST_BUDGET: 'lots' }, 'REQUEST_BUDGET'],
    [{ REQUEST_BUDGET: '0' }, 'REQUEST_BUDGET'],
    [{ MAX_RPS: 'fast' }, 'MAX_RPS'],
    [{ MAX_RPS: '0' }, 'MAX_RPS'],
    [{ MAX_IN_FLIGHT: '0' }, 'MAX_IN_FLIGHT'],
    [{ MAX_IN_FLIGHT: '2.5' }, 'MAX_IN_FLIGHT'],
    [{ MAX_BODY_BYTES: '1k' }, 'MAX_BODY_BYTES'],
    [{ MAX_BODY_BYTES: '12' }, 'MAX_BODY_BYTES'],
    [{ CONFORMANCE_DRY_RUN: 'yes' }, 'CONFORMANCE_DRY_RUN'],
    [{ TRACE_HEADERS: 'off' }, 'TRACE_HEADERS'],
    [{ ...remote, NODE_EXTRA_CA_CERTS: '/no/such/authority.pem' }, 'NODE_EXTRA_CA_CERTS'],
  ];
  for (const [env, variable] of cases) {
    const error = errorFor(env);
    expect(error.variable, JSON.stringify(env)).toBe(variable);
    expect(error.message.startsWith(`${variable} `), error.message).toBe(true);
    expect(error.message, 'one line').not.toContain('\n');
  }
});

test('a key with whitespace is refused without echoing the key', () => {
  const error = errorFor({ ...remote, API_KEY: 'secret-with space' });
  expect(error.variable).toBe('API_KEY');
  expect(error.message).not.toContain('secret');
});

test('the redacted configuration carries no key', () => {
  const text = JSON.stringify(redactedConfig(loadConfig({ ...remote, RESTRICTED_API_KEY: 'restricted-456' })));
  expect(text).not.toContain('k-123');
  expect(text).not.toContain('restricted-456');
  expect(text).toContain('[redacted]');
});

test('the env file is read, and the process environment wins over it', () => {
  const path = join(freshDir('dotenv'), '.env');
  writeFileSync(path, 'REFERENCE_CALLS=77\nREFERENCE_SEED=5\n');
  const env = environment({ ENV_FILE: path, REFERENCE_SEED: '6' });
  expect(loadConfig(env).target).toEqual({
    kind: 'embedded',
    seed: 6,
    calls: 77,
    readings: 'entries',
    getEnvelope: 'data-object',
    alternatives: [],
  });
});

test('an empty ENV_FILE reads no file, and one that does not exist is refused', () => {
  expect(environment({ ENV_FILE: '' })).toEqual({ ENV_FILE: '' });
  expect(() => environment({ ENV_FILE: join(tmpdir(), 'no-such-dir', '.env') })).toThrow(/^ENV_FILE names a file that does not exist/);
});

test('the run settings default to the spec profile, 20 runs, a fresh seed and no replay path', () => {
  const config = loadConfig({});
  expect(config.profile).toBe('spec');
  expect(config.runs).toBe(20);
  expect(Number.isInteger(config.seed)).toBe(true);
  expect(config.replayPath).toBeUndefined();
  expect(config).toMatchObject({ requestBudget: undefined, maxRps: undefined, maxInFlight: 8, maxBodyBytes: 10 * 2 ** 20, dryRun: false });
  expect(loadConfig({ MAX_IN_FLIGHT: '1' }).maxInFlight).toBe(1);
  expect(loadConfig({ REQUEST_BUDGET: '500', MAX_RPS: '2.5', MAX_BODY_BYTES: '2048', CONFORMANCE_DRY_RUN: 'true' })).toMatchObject({
    requestBudget: 500,
    maxRps: 2.5,
    maxBodyBytes: 2048,
    dryRun: true,
  });
  expect(
    loadConfig({ CONFORMANCE_PROFILE: 'strict', CONFORMANCE_SEED: '42', CONFORMANCE_RUNS: '5', CONFORMANCE_PATH: '3:0:1' }),
  ).toMatchObject({ profile: 'strict', seed: 42, runs: 5, replayPath: '3:0:1' });
});

test('the console is compact unless CONFORMANCE_CONSOLE=verbose asks for every test and failure in full', () => {
  expect(loadConfig({}).console).toBe('compact');
  expect(loadConfig({ CONFORMANCE_CONSOLE: 'verbose' }).console).toBe('verbose');
});

test('a run is taken as started by Playwright unless the command line says where it runs: CONFORMANCE_LAUNCHER=clone or installed', () => {
  expect(loadConfig({}).launcher).toBe('playwright');
  expect(loadConfig({ CONFORMANCE_LAUNCHER: 'clone' }).launcher).toBe('clone');
  expect(loadConfig({ CONFORMANCE_LAUNCHER: 'installed' }).launcher).toBe('installed');
});

test("results.sarif points at the catalog's lines unless SARIF_LOCATION=openapi; SARIF_PATH_PREFIX names the folder of the user's repository that holds the files", () => {
  expect(loadConfig({}).sarif).toEqual({ location: 'catalog' });
  expect(loadConfig({ SARIF_LOCATION: 'openapi' }).sarif).toEqual({ location: 'openapi' });
  expect(loadConfig({ SARIF_PATH_PREFIX: 'contracts/calls/' }).sarif).toEqual({ location: 'catalog', pathPrefix: 'contracts/calls' });
  expect(loadConfig({ SARIF_PATH_PREFIX: './.github/conformance' }).sarif.pathPrefix).toBe('.github/conformance');
  // The repository's root itself.
  expect(loadConfig({ SARIF_PATH_PREFIX: '.' }).sarif.pathPrefix).toBe('');
  expect(Object.isFrozen(loadConfig({}).sarif)).toBe(true);
});

for (const value of ['/etc/openapi', '../elsewhere', 'contracts/../..', 'contracts//calls', 'C:\\repo', 'https://example.test/x', 'a b']) {
  test(`SARIF_PATH_PREFIX=${value} is refused with one line naming it: a folder inside the repository, with forward slashes`, () => {
    expect(errorFor({ SARIF_PATH_PREFIX: value }).message).toMatch(/^SARIF_PATH_PREFIX must be a folder relative to the repository's root/);
  });
}

for (const [variable, value] of [
  ['SARIF_LOCATION', 'operation'],
  ['CONFORMANCE_PROFILE', 'lenient'],
  ['CONFORMANCE_CONSOLE', 'loud'],
  ['CONFORMANCE_SEED', 'abc'],
  ['CONFORMANCE_SEED', '-1'],
  ['CONFORMANCE_RUNS', '0'],
  ['CONFORMANCE_PATH', '3::1'],
  ['CONFORMANCE_LAUNCHER', 'npm'],
] as const) {
  test(`${variable}=${value} is refused with one line naming it`, () => {
    expect(errorFor({ [variable]: value }).message).toMatch(new RegExp(`^${variable} must be `));
  });
}

test('NODE_EXTRA_CA_CERTS in the env file is refused: Node reads it as it starts, so from the file it would trust nothing', () => {
  const path = join(freshDir('dotenv'), '.env');
  writeFileSync(path, 'NODE_EXTRA_CA_CERTS=/etc/ssl/our-authority.pem\n');
  expect(() => environment({ ENV_FILE: path })).toThrow(
    /^NODE_EXTRA_CA_CERTS is read by Node as it starts, so in .* it has no effect: set it in the environment instead$/,
  );
  // The embedded reference is reached over plain HTTP: a file that is not there is no reason to stop.
  expect(loadConfig({ NODE_EXTRA_CA_CERTS: '/no/such/authority.pem' }).target.kind).toBe('embedded');
  // Set where Node reads it, the file's copy is only a reminder.
  expect(environment({ ENV_FILE: path, NODE_EXTRA_CA_CERTS: '/etc/ssl/our-authority.pem' }).NODE_EXTRA_CA_CERTS).toBe(
    '/etc/ssl/our-authority.pem',
  );
});

test('.env.example documents every variable the configuration reads, and the table of docs/configuration.md names each', () => {
  const root = new URL('../../', import.meta.url);
  // The embedded reference's own variables are read beside it, for the configuration; the diff's, for its command.
  const source = ['core/run/config.ts', 'reference/options-from-env.ts', 'core/diff/diff-settings.ts']
    .map((file) => readFileSync(new URL(file, root), 'utf8'))
    .join('\n');
  const read = new Set([...source.matchAll(/read\('([A-Z_]+)'\)|env\.([A-Z_]{4,})/g)].map((match) => match[1] ?? match[2]!));
  expect(read.size).toBeGreaterThan(20);
  expect(read).toContain('REFERENCE_ALTERNATIVES');
  expect(read).toContain('DIFF_IGNORE');
  const example = readFileSync(new URL('.env.example', root), 'utf8');
  const table = readFileSync(new URL('docs/configuration.md', root), 'utf8');
  for (const variable of read) {
    expect(example, variable).toMatch(new RegExp(`^# ${variable}=`, 'm'));
    expect(table, variable).toContain(`\`${variable}\``);
  }
});

test("the runner's derivations give what reading again would: the runs the budget scaled, and the embedded reference's address once it listens", () => {
  const env = { CONFORMANCE_SEED: '7', REQUEST_BUDGET: '900', BASELINE: '' };
  // Compared as the report shows them, key order included: the configuration travels in results.json.
  expect(JSON.stringify(withRuns(loadConfig(env), 3))).toBe(JSON.stringify(loadConfig({ ...env, CONFORMANCE_RUNS: '3' })));
  expect(Object.isFrozen(withRuns(loadConfig(env), 3))).toBe(true);
  const address = { [REFERENCE_URL_VARIABLE]: 'http://127.0.0.1:4321/v3' };
  const started = withEmbeddedAddress(loadConfig(env), address);
  expect(JSON.stringify(started)).toBe(JSON.stringify(loadConfig({ ...env, ...address })));
  expect(started.callsBaseUrl).toBe('http://127.0.0.1:4321/v3');
  const remoteConfig = loadConfig(remote);
  expect(withEmbeddedAddress(remoteConfig, address)).toBe(remoteConfig);
});

test('a passive run needs no API_KEY for a remote target, and takes the one configured', () => {
  expect(errorFor({ CALLS_BASE_URL: remote.CALLS_BASE_URL, CHAT_BASE_URL: remote.CHAT_BASE_URL }).variable).toBe('API_KEY');
  const passive = loadPassiveConfig({ CALLS_BASE_URL: remote.CALLS_BASE_URL, CHAT_BASE_URL: remote.CHAT_BASE_URL, API_KEY: '' });
  expect(passive).toMatchObject({ callsBaseUrl: remote.CALLS_BASE_URL, target: { kind: 'remote' } });
  expect(loadPassiveConfig(remote).apiKey).toBe(remote.API_KEY);
});
