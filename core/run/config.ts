// The suite's configuration enters here and only here: `.env` (read with dotenv) under the process
// environment, parsed into a typed, validated, frozen object. Tests and checks never read
// process.env. A bad value stops the run before any test, with one line naming the variable.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import { PROFILES, type Profile } from './profile.ts';
import { readExpectations, EXPECTATIONS_VARIABLE, type Expectations } from '../results/expectations.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { readResultsFile, resultsPathOf } from '../results/results-file.ts';
import { parse as parseDotenv } from 'dotenv';
import { DEMO_KEYS, UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import { referenceOptionsFromEnv, ReferenceOptionError, type EmbeddedReferenceOptions } from '../../reference/options-from-env.ts';
import { DEFAULT_SETTLE_SECONDS } from '../checks/settling.ts';
import { DEFAULT_MAX_ANSWER_AGE, MAX_ANSWER_AGE_LIMIT } from '../checks/answer-age.ts';
import { LAUNCHER_VARIABLE, LAUNCHERS, type Launcher } from '../results/replay-command.ts';
import { readHistorySettings, type HistorySettings } from '../history/history-settings.ts';
import { readDiffSettings, type DiffSettings } from '../diff/diff-settings.ts';

export const REGIONS = ['us', 'eu', 'in'] as const;
export type Region = (typeof REGIONS)[number];

/** Set by Playwright from the embedded reference's start-up line (see playwright.config.ts). */
export const REFERENCE_URL_VARIABLE = 'CONFORMANCE_REFERENCE_URL';

/** The embedded reference with its options (reference/options-from-env.ts), or a remote target. */
export type Target =
  ({ kind: 'embedded' } & EmbeddedReferenceOptions) | { kind: 'remote'; source: 'base-urls' | 'app-id'; appId?: string; region?: Region };

export interface SuiteConfig {
  target: Target;
  /** Base addresses, ending in /v3; for the embedded target known only once it has started. */
  callsBaseUrl: string | undefined;
  chatBaseUrl: string | undefined;
  apiKey: string;
  /** A key without fullAccess scope, when one is configured. */
  restrictedApiKey: string | undefined;
  /** Whether the suite may send the one write of the interface (mark-unread). */
  allowWrites: boolean;
  unread: { groupGuid: string; messageId: number; actingUid: string } | undefined;
  requestTimeoutMs: number;
  /** The most the suite reads of one answer's body (after decoding); a larger answer is not judged. */
  maxBodyBytes: number;
  /** At most this many requests in the run (each retry counts), when set; property runs are scaled to fit. */
  requestBudget: number | undefined;
  /** At most this many requests a second, shared by the workers, when set. */
  maxRps: number | undefined;
  /** At most this many requests waiting on the target at once, shared by the workers (1 sends one at a time). */
  maxInFlight: number;
  /**
   * How long after a call's last moment (by the target's own clock) what settles late may still
   * change (SETTLE_SECONDS): older calls are compared strictly, newer ones one way (checks/settling.ts).
   */
  settleSeconds: number;
  /**
   * MAX_ANSWER_AGE: how much older than its arrival an answer may be (a cache, a lagging read
   * replica), in seconds. A comparison of two answers fails only on what no such age explains
   * (checks/answer-age.ts); where only an age explains it, the suite asks again once this has passed.
   */
  maxAnswerAgeSeconds: number;
  /** PAGE_SIZE_PARAMETER: the name of List Calls' page-size parameter, where the names tried (learning/paging.ts) do not fit. */
  pageSizeParameter: string | undefined;
  /** `spec` judges by the specification alone; `strict` adds the deployed API's conventions. */
  profile: Profile;
  /** fast-check's seed and number of runs per property; `replayPath` replays one counterexample. */
  seed: number;
  runs: number;
  replayPath: string | undefined;
  /** List what a run would send, and send nothing. */
  dryRun: boolean;
  /** Known failures (CONFORMANCE_EXPECTATIONS), when a file is named. */
  expectations: Expectations | undefined;
  /** How many times a failed test is run again before its requirement is judged (Playwright's retries). */
  retries: number;
  /** The results.json a run is compared with when it ends (BASELINE), when one is named. */
  baseline: string | undefined;
  /**
   * COVERAGE_MIN: the least share (percent) of each coverage dimension a run must cover
   * (core/coverage/model.ts); under it the verdict is INCONCLUSIVE at best. Unset: coverage is only reported.
   */
  coverageMin: number | undefined;
  /**
   * What the console shows (CONFORMANCE_CONSOLE): `compact`, progress and one line per failed
   * requirement before the verdict (the failures in full are in the report); `verbose`, Playwright's
   * list of every test with each failure in full, and every test that met a credited violation.
   */
  console: ConsoleMode;
  /**
   * What started the run and where (CONFORMANCE_LAUNCHER, set by the command line for its Playwright
   * to `clone` or `installed`; unset, Playwright itself), so that failures name a command that
   * replays them where they are printed (replay-command.ts).
   */
  launcher: Launcher;
  /** HISTORY_FILE and HISTORY_LIMIT: the runs' history each run adds its line to, when one is named (core/history/). */
  history: HistorySettings | undefined;
  /**
   * TRACE_HEADERS: whether every request carries a W3C `traceparent` and `x-conformance-test`
   * naming its test (transport/trace-context.ts), so that a server's logs can find it; off for a
   * target that refuses headers it does not know.
   */
  traceHeaders: boolean;
  /** Where results.sarif points each result for code scanning (SARIF_LOCATION, SARIF_PATH_PREFIX). */
  sarif: SarifSettings;
}

/**
 * Where a result of results.sarif points (reports/render-sarif.ts): `catalog`, the requirement's
 * entry in requirements.yaml; `openapi`, the part of the OpenAPI document it concerns (its schema, or
 * its operation). A code-scanning alert can only show a line of a file the repository holds.
 */
export const SARIF_LOCATIONS = ['catalog', 'openapi'] as const;
export type SarifLocation = (typeof SARIF_LOCATIONS)[number];

export interface SarifSettings {
  location: SarifLocation;
  /**
   * SARIF_PATH_PREFIX: the folder, relative to the root of the repository the results are uploaded
   * to, that holds requirements.yaml and calls-api.openapi.yaml; unset, their paths from the working
   * directory as the suite reads them. `''` is the repository's root.
   */
  pathPrefix?: string;
}

export const CONSOLE_MODES = ['compact', 'verbose'] as const;
export type ConsoleMode = (typeof CONSOLE_MODES)[number];

export const DEFAULT_RUNS = 20;
/** Enough to hide most of a remote target's latency, few enough that no deployment takes it for a burst. */
export const DEFAULT_MAX_IN_FLIGHT = 8;
/**
 * A failed test is run once more: a failure seen both times is deterministic, one seen once
 * intermittent. Once, not more: Playwright starts a new worker for every attempt after a failure,
 * and a failing run must cost about what a passing one does.
 */
export const DEFAULT_RETRIES = 1;
export const DEFAULT_MAX_BODY_BYTES = 10 * 2 ** 20;
const MAX_SEED = 2 ** 31 - 1;

/** A fresh seed for a run that names none; the runner pins it in the environment for its workers. */
function chooseSeed(): number {
  return Math.floor(Math.random() * MAX_SEED);
}

export { ConfigError };

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The process environment over the env file, if there is one: ENV_FILE names it (`.env` in the
 * working directory by default; empty for none, which keeps the project's own tests hermetic).
 */
export function environment(processEnv: Env = process.env): Env {
  const path = processEnv.ENV_FILE ?? '.env';
  if (path !== '' && processEnv.ENV_FILE !== undefined && !existsSync(path)) {
    throw new ConfigError('ENV_FILE', `names a file that does not exist (got "${path}")`);
  }
  const fromFile = path !== '' && existsSync(path) ? parseDotenv(readFileSync(path)) : {};
  // Node reads it as a process starts, long before any env file is: from the file it would trust nothing.
  if (fromFile.NODE_EXTRA_CA_CERTS !== undefined && processEnv.NODE_EXTRA_CA_CERTS === undefined) {
    throw new ConfigError(
      'NODE_EXTRA_CA_CERTS',
      `is read by Node as it starts, so in ${path} it has no effect: set it in the environment instead`,
    );
  }
  return { ...fromFile, ...processEnv };
}

/**
 * Where environment() took a variable from, for a line that names it: the process environment, which
 * wins, or the env file. Judged from the process environment alone: the file is not read again.
 */
export function variableSource(name: string, processEnv: Env = process.env): string {
  return processEnv[name] !== undefined ? 'the environment' : (processEnv.ENV_FILE ?? '.env');
}

/** A variable's value, as the configuration reads every one: unset and empty are alike. */
const variablesOf =
  (env: Env) =>
  (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value === '' ? undefined : value;
  };

/**
 * The configuration from `env`. A process reads it once, at its entry, and passes it down: the
 * runner and each worker through config-of-this-process.ts, each command as it starts, the passive
 * ones through loadPassiveConfig (tests/structure/config-entry.spec.ts names every reader).
 */
export function loadConfig(env: Env): SuiteConfig {
  const read = variablesOf(env);
  const target = readTarget(read);
  const embedded = target.kind === 'embedded';
  const addresses = embedded ? embeddedAddresses(read) : remoteAddresses(target, read);

  const apiKey = readKey('API_KEY', read('API_KEY')) ?? (embedded ? DEMO_KEYS.fullAccess : undefined);
  if (apiKey === undefined) throw new ConfigError('API_KEY', 'is required when a remote target is configured');
  const restrictedApiKey = readKey('RESTRICTED_API_KEY', read('RESTRICTED_API_KEY')) ?? (embedded ? DEMO_KEYS.readOnly : undefined);
  if (restrictedApiKey !== undefined && restrictedApiKey === apiKey) {
    throw new ConfigError('RESTRICTED_API_KEY', 'must differ from API_KEY (it is the key without fullAccess scope)');
  }

  const allowWrites = readBoolean('ALLOW_WRITES', read('ALLOW_WRITES')) ?? embedded;
  if (!embedded) checkExtraCertificates(read('NODE_EXTRA_CA_CERTS'));
  const unread = readUnreadFixture(read, embedded, allowWrites);

  return Object.freeze({
    target: Object.freeze(target),
    ...addresses,
    apiKey,
    restrictedApiKey,
    allowWrites,
    unread: unread && Object.freeze(unread),
    requestTimeoutMs: readInteger('REQUEST_TIMEOUT_MS', read('REQUEST_TIMEOUT_MS'), 100, 600_000) ?? 10_000,
    maxBodyBytes: readInteger('MAX_BODY_BYTES', read('MAX_BODY_BYTES'), 1024, 2 ** 30) ?? DEFAULT_MAX_BODY_BYTES,
    requestBudget: readInteger('REQUEST_BUDGET', read('REQUEST_BUDGET'), 1, 10_000_000),
    maxRps: readRate('MAX_RPS', read('MAX_RPS')),
    maxInFlight: readInteger('MAX_IN_FLIGHT', read('MAX_IN_FLIGHT'), 1, 256) ?? DEFAULT_MAX_IN_FLIGHT,
    settleSeconds: readInteger('SETTLE_SECONDS', read('SETTLE_SECONDS'), 0, 7 * 86_400) ?? DEFAULT_SETTLE_SECONDS,
    maxAnswerAgeSeconds: readInteger('MAX_ANSWER_AGE', read('MAX_ANSWER_AGE'), 0, MAX_ANSWER_AGE_LIMIT) ?? DEFAULT_MAX_ANSWER_AGE,
    pageSizeParameter: readPageSizeParameter(read('PAGE_SIZE_PARAMETER')),
    profile: readChoice('CONFORMANCE_PROFILE', read('CONFORMANCE_PROFILE'), PROFILES) ?? 'spec',
    seed: readInteger('CONFORMANCE_SEED', read('CONFORMANCE_SEED'), 0, MAX_SEED) ?? chooseSeed(),
    runs: readInteger('CONFORMANCE_RUNS', read('CONFORMANCE_RUNS'), 1, 10_000) ?? DEFAULT_RUNS,
    replayPath: readReplayPath(read('CONFORMANCE_PATH')),
    dryRun: readBoolean('CONFORMANCE_DRY_RUN', read('CONFORMANCE_DRY_RUN')) ?? false,
    expectations:
      read(EXPECTATIONS_VARIABLE) === undefined ? undefined : Object.freeze(readExpectations(read(EXPECTATIONS_VARIABLE)!, loadCatalog())),
    retries: readInteger('CONFORMANCE_RETRIES', read('CONFORMANCE_RETRIES'), 0, 10) ?? DEFAULT_RETRIES,
    baseline: readBaseline(read('BASELINE'), reportDirectory(env)),
    coverageMin: readInteger('COVERAGE_MIN', read('COVERAGE_MIN'), 0, 100),
    console: readChoice('CONFORMANCE_CONSOLE', read('CONFORMANCE_CONSOLE'), CONSOLE_MODES) ?? 'compact',
    launcher: readChoice(LAUNCHER_VARIABLE, read('CONFORMANCE_LAUNCHER'), LAUNCHERS) ?? 'playwright',
    history: readHistorySettings(read('HISTORY_FILE'), read('HISTORY_LIMIT'), {
      reportDir: reportDirectory(env),
      artefacts: ARTEFACTS_FOLDER,
    }),
    traceHeaders: readBoolean('TRACE_HEADERS', read('TRACE_HEADERS')) ?? true,
    sarif: Object.freeze(readSarifSettings(read)),
  });
}

/**
 * The configuration with the runs per property REQUEST_BUDGET scaled it to (budget-plan.ts, from 1
 * to the configured runs): what reading it again with CONFORMANCE_RUNS set to them gives, as the
 * runner's workers do.
 */
export function withRuns(config: SuiteConfig, runs: number): SuiteConfig {
  return Object.freeze({ ...config, runs });
}

/**
 * The configuration once the embedded reference has said where it listens (REFERENCE_URL_VARIABLE,
 * which Playwright sets in the runner from the reference's start-up line): the runner read it before
 * the reference started. A remote target's addresses were known from the start.
 */
export function withEmbeddedAddress(config: SuiteConfig, env: Env): SuiteConfig {
  return config.target.kind === 'embedded' ? Object.freeze({ ...config, ...embeddedAddresses(variablesOf(env)) }) : config;
}

/**
 * Stands in for API_KEY in a passive run, which sends no request: judging recorded or proxied
 * traffic needs no key, and nothing shows this one (the report's configuration is the passive run's own).
 */
const PASSIVE_RUN_KEY = 'passive-run-sends-no-request';

/**
 * The configuration of a passive run (`har`, the judging proxy, the merge of their reports): the
 * base addresses, the profile, the known failures, as a run reads them, but a remote target needs no
 * API_KEY, since nothing is sent.
 */
export function loadPassiveConfig(env: Env): SuiteConfig {
  return loadConfig({ ...env, API_KEY: env.API_KEY || PASSIVE_RUN_KEY });
}

/** The diff command's configuration: the primary (the usual target), the candidate beside it, the diff's settings. */
export interface DiffConfig {
  primary: SuiteConfig;
  candidate: SuiteConfig;
  /** A second trusted copy of the primary (SECONDARY_*), asked in the A/A pass instead of the primary again, when given. */
  secondary: SuiteConfig | undefined;
  diff: DiffSettings;
  /** Where the diff's reports go: REPORT_DIR, else DEFAULT_DIFF_REPORT_DIR, so that no conformance report is replaced. */
  reportDir: string;
}

export const DEFAULT_DIFF_REPORT_DIR = 'diff-report';

/**
 * The candidate's variables, each read as the primary's namesake is read: its addresses, its keys,
 * and the fixture mark-unread writes to on it when ALLOW_WRITES=true (each side has its own group).
 */
export const CANDIDATE_VARIABLES: Readonly<Record<string, string>> = {
  CALLS_BASE_URL: 'CANDIDATE_CALLS_BASE_URL',
  CHAT_BASE_URL: 'CANDIDATE_CHAT_BASE_URL',
  API_KEY: 'CANDIDATE_API_KEY',
  RESTRICTED_API_KEY: 'CANDIDATE_RESTRICTED_API_KEY',
  GROUP_GUID: 'CANDIDATE_GROUP_GUID',
  MESSAGE_ID: 'CANDIDATE_MESSAGE_ID',
  ACTING_UID: 'CANDIDATE_ACTING_UID',
};

/** The secondary's variables: a trusted copy of the primary, asked in the A/A pass when given. */
const SECONDARY_VARIABLES: Readonly<Record<string, string>> = {
  CALLS_BASE_URL: 'SECONDARY_CALLS_BASE_URL',
  CHAT_BASE_URL: 'SECONDARY_CHAT_BASE_URL',
  API_KEY: 'SECONDARY_API_KEY',
  RESTRICTED_API_KEY: 'SECONDARY_RESTRICTED_API_KEY',
  GROUP_GUID: 'SECONDARY_GROUP_GUID',
  MESSAGE_ID: 'SECONDARY_MESSAGE_ID',
  ACTING_UID: 'SECONDARY_ACTING_UID',
};

/**
 * One side of a diff read from its own variables (`names`: the usual variable → the side's), the
 * run's settings shared: ALLOW_WRITES among them, so that writes are allowed on every side or none.
 */
function diffSideConfig(env: Env, seed: number, names: Readonly<Record<string, string>>): SuiteConfig {
  const sideEnv: Record<string, string | undefined> = { ...env, CONFORMANCE_SEED: String(seed) };
  for (const [own, side] of Object.entries(names)) sideEnv[own] = env[side];
  try {
    return loadConfig(sideEnv);
  } catch (error) {
    if (error instanceof ConfigError && names[error.variable] !== undefined)
      throw new ConfigError(names[error.variable]!, error.message.slice(error.variable.length + 1));
    throw error;
  }
}

/**
 * The configuration of `diff` (docs/diff.md), read once at its entry. Both sides are remote targets,
 * each with its own addresses and keys; everything else (bounds, seed, timeouts) is the run's, shared.
 * A candidate's bad value is named by its own variable. Reads only unless ALLOW_WRITES=true (a remote
 * target's default is false), and then every side names its own mark-unread fixture, as a run does.
 */
export function loadDiffConfig(env: Env): DiffConfig {
  const read = variablesOf(env);
  if (read('CALLS_BASE_URL') === undefined)
    throw new ConfigError('CALLS_BASE_URL', 'is required by diff: the primary (trusted) deployment, with CHAT_BASE_URL and API_KEY');
  if (read('CANDIDATE_CALLS_BASE_URL') === undefined)
    throw new ConfigError(
      'CANDIDATE_CALLS_BASE_URL',
      'is required by diff: the candidate, with CANDIDATE_CHAT_BASE_URL and CANDIDATE_API_KEY',
    );
  const primary = loadConfig(env);
  const candidate = diffSideConfig(env, primary.seed, CANDIDATE_VARIABLES);
  const secondaryGiven = Object.values(SECONDARY_VARIABLES).filter((name) => read(name) !== undefined);
  if (secondaryGiven.length > 0 && read('SECONDARY_CALLS_BASE_URL') === undefined)
    throw new ConfigError(
      'SECONDARY_CALLS_BASE_URL',
      `is required when ${secondaryGiven.join(', ')} is set: the secondary trusted copy, with SECONDARY_CHAT_BASE_URL and SECONDARY_API_KEY`,
    );
  const secondary = secondaryGiven.length > 0 ? diffSideConfig(env, primary.seed, SECONDARY_VARIABLES) : undefined;
  return Object.freeze({
    primary,
    candidate,
    secondary,
    diff: readDiffSettings(read),
    reportDir: read('REPORT_DIR') ?? DEFAULT_DIFF_REPORT_DIR,
  });
}

/**
 * The certificates Node trusts beside its own (an organisation's authority, for a target over HTTPS).
 * Node only warns when the file cannot be read, and every request then fails on the certificate.
 * The embedded reference is reached over plain HTTP, so there it does not matter.
 */
function checkExtraCertificates(path: string | undefined): void {
  if (path !== undefined && !existsSync(path))
    throw new ConfigError('NODE_EXTRA_CA_CERTS', `names a file that does not exist (got "${path}")`);
}

/** The folder of REPORT_DIR that Playwright's own artefacts go to, which Playwright empties as a run starts. */
export const ARTEFACTS_FOLDER = 'test-results';

/**
 * The default report folder of each kind of command: a run of the suite (and its merge, certify's
 * run) and the passive commands (har, the judging proxy, their merge) each have their own, so that
 * judging a recording never replaces the last run's report (reports/report-folder.ts).
 */
export const DEFAULT_REPORT_DIRS = { run: 'conformance-report', passive: 'passive-report' } as const;
export type ReportWriter = keyof typeof DEFAULT_REPORT_DIRS;

/** Where the reports are written: REPORT_DIR, or the writer's default folder in the working directory. */
export function reportDirectory(env: Env, writer: ReportWriter = 'run'): string {
  const value = env.REPORT_DIR;
  return value === undefined || value.trim() === '' ? DEFAULT_REPORT_DIRS[writer] : value;
}

/** The configuration with every secret replaced, for reports and logs. */
export function redactedConfig(config: SuiteConfig): Record<string, unknown> {
  // The expectations are reported in a place of their own; here only which file they came from.
  return {
    ...config,
    apiKey: '[redacted]',
    restrictedApiKey: config.restrictedApiKey === undefined ? undefined : '[redacted]',
    expectations: config.expectations?.file,
  };
}

function readTarget(read: (name: string) => string | undefined): Target {
  const hasBaseUrls = read('CALLS_BASE_URL') !== undefined || read('CHAT_BASE_URL') !== undefined;
  const hasAppId = read('APP_ID') !== undefined || read('REGION') !== undefined;
  if (hasBaseUrls && hasAppId) {
    const variable = read('CALLS_BASE_URL') !== undefined ? 'CALLS_BASE_URL' : 'CHAT_BASE_URL';
    throw new ConfigError(
      variable,
      'and APP_ID/REGION both configure the target; set CALLS_BASE_URL and CHAT_BASE_URL, or APP_ID and REGION, not both',
    );
  }
  if (hasBaseUrls) return { kind: 'remote', source: 'base-urls' };
  if (hasAppId) {
    const appId = read('APP_ID');
    const region = read('REGION');
    if (appId === undefined) throw new ConfigError('APP_ID', 'is required with REGION');
    if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/.test(appId))
      throw new ConfigError('APP_ID', `must be letters, digits and hyphens (got "${appId}")`);
    if (region === undefined) throw new ConfigError('REGION', `is required with APP_ID; one of ${REGIONS.join(', ')}`);
    if (!(REGIONS as readonly string[]).includes(region))
      throw new ConfigError('REGION', `must be one of ${REGIONS.join(', ')} (got "${region}")`);
    return { kind: 'remote', source: 'app-id', appId, region: region as Region };
  }
  try {
    return { kind: 'embedded', ...referenceOptionsFromEnv(read) };
  } catch (error) {
    if (error instanceof ReferenceOptionError) throw new ConfigError(error.variable, error.detail);
    throw error;
  }
}

/** A query parameter's name: letters, digits, '_', '-' and '.', as page-size names are spelt. */
function readPageSizeParameter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(value))
    throw new ConfigError(
      'PAGE_SIZE_PARAMETER',
      `must be a query parameter's name: a letter, then letters, digits, _, - or . (got "${value}")`,
    );
  return value;
}

function remoteAddresses(target: Extract<Target, { kind: 'remote' }>, read: (name: string) => string | undefined) {
  if (target.source === 'app-id') {
    return {
      callsBaseUrl: `https://${target.appId}.call-${target.region}.cometchat.io/v3`,
      chatBaseUrl: `https://${target.appId}.api-${target.region}.cometchat.io/v3`,
    };
  }
  return { callsBaseUrl: readBaseUrl('CALLS_BASE_URL', read), chatBaseUrl: readBaseUrl('CHAT_BASE_URL', read) };
}

/** In the runner the embedded reference has not started yet; in the workers its address is known. */
function embeddedAddresses(read: (name: string) => string | undefined) {
  const url = read(REFERENCE_URL_VARIABLE);
  const base = url === undefined ? undefined : readBaseUrl(REFERENCE_URL_VARIABLE, read);
  return { callsBaseUrl: base, chatBaseUrl: base };
}

function readBaseUrl(name: string, read: (name: string) => string | undefined): string {
  const raw = read(name);
  if (raw === undefined) throw new ConfigError(name, 'is required: CALLS_BASE_URL and CHAT_BASE_URL go together');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an http(s) URL ending in /v3 (got "${raw}")`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!['http:', 'https:'].includes(url.protocol) || !path.endsWith('/v3') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(name, `must be an http(s) URL ending in /v3, without query or credentials (got "${raw}")`);
  }
  return `${url.origin}${path}`;
}

/** A baseline is a run's results.json, or the folder that holds one, but not the one this run writes. */
function readBaseline(value: string | undefined, reportDir: string): string | undefined {
  if (value === undefined) return undefined;
  if (resolve(resultsPathOf(value)) === resolve(reportDir, 'results.json')) {
    throw new ConfigError('BASELINE', `names the results.json this run writes in REPORT_DIR (${reportDir}); keep the baseline elsewhere`);
  }
  try {
    readResultsFile(value);
  } catch (error) {
    throw new ConfigError('BASELINE', `must name a run's results.json or its folder: ${(error as Error).message}`);
  }
  return resultsPathOf(value);
}

function readKey(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // The value itself is never echoed: it is a secret.
  if (/[\s\p{Cc}]/u.test(value)) throw new ConfigError(name, 'must not contain whitespace or control characters');
  return value;
}

function readBoolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new ConfigError(name, `must be true or false (got "${value}")`);
}

function readInteger(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

function readRate(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0 || Number(value) > 100_000) {
    throw new ConfigError(name, `must be a number of requests a second above 0, at most 100000 (got "${value}")`);
  }
  return Number(value);
}

function readChoice<T extends string>(name: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(name, `must be one of ${choices.join(', ')} (got "${value}")`);
}

function readSarifSettings(read: (name: string) => string | undefined): SarifSettings {
  const location = readChoice('SARIF_LOCATION', read('SARIF_LOCATION'), SARIF_LOCATIONS) ?? 'catalog';
  const pathPrefix = readPathPrefix(read('SARIF_PATH_PREFIX'));
  return pathPrefix === undefined ? { location } : { location, pathPrefix };
}

/**
 * A folder of the repository as code scanning reads a result's path: relative to the repository's
 * root, with forward slashes, never leaving it. `.` (or `./`) is the root itself, given as `''`.
 */
function readPathPrefix(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const folder = value.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const segments = folder === '' || folder === '.' ? [] : folder.split('/');
  if (segments.some((segment) => !/^(?!\.{1,2}$)[A-Za-z0-9_.-]+$/.test(segment)))
    throw new ConfigError(
      'SARIF_PATH_PREFIX',
      `must be a folder relative to the repository's root, such as contracts/calls: names of letters, digits, _, - and . separated by /, never . or .. (got "${value}")`,
    );
  return segments.join('/');
}

/** fast-check's path of a counterexample: run indexes separated by colons, as it prints them. */
function readReplayPath(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (/^\d+(:\d+)*$/.test(value)) return value;
  throw new ConfigError('CONFORMANCE_PATH', `must be a fast-check path such as 12:0:3 (got "${value}")`);
}

function readUnreadFixture(read: (name: string) => string | undefined, embedded: boolean, allowWrites: boolean) {
  const groupGuid = read('GROUP_GUID') ?? (embedded ? UNREAD_FIXTURE.groupGuid : undefined);
  const rawMessageId = read('MESSAGE_ID');
  const messageId =
    rawMessageId === undefined
      ? embedded
        ? UNREAD_FIXTURE.messageId
        : undefined
      : readInteger('MESSAGE_ID', rawMessageId, 1, Number.MAX_SAFE_INTEGER);
  const actingUid = read('ACTING_UID') ?? (embedded ? UNREAD_FIXTURE.actingUid : undefined);
  if (!allowWrites) return groupGuid && messageId && actingUid ? { groupGuid, messageId, actingUid } : undefined;
  if (groupGuid === undefined) throw new ConfigError('GROUP_GUID', 'is required when ALLOW_WRITES=true (the group mark-unread writes to)');
  if (messageId === undefined) throw new ConfigError('MESSAGE_ID', 'is required when ALLOW_WRITES=true (a message id of that group)');
  if (actingUid === undefined) throw new ConfigError('ACTING_UID', 'is required when ALLOW_WRITES=true (a member of that group)');
  return { groupGuid, messageId, actingUid };
}
