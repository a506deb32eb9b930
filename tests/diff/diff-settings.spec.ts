// The diff's settings: defaults, each bad value stopped with one line naming its variable, and
// DIFF_IGNORE's rules read, a rule that would silence a whole answer refused.
import { test, expect } from '@playwright/test';
import { DEFAULT_MIN_COMPARISONS, DEFAULT_NOISE, readDiffSettings, readIgnoreRules } from '../../core/diff/diff-settings.ts';
import { loadDiffConfig } from '../../core/run/config.ts';

const readerOf = (env: Record<string, string>) => (name: string) => env[name];

test('unset, the documented defaults', () => {
  expect(readDiffSettings(readerOf({}))).toEqual({ noise: DEFAULT_NOISE, minComparisons: DEFAULT_MIN_COMPARISONS, ignore: [] });
});

test('bad thresholds and counts are refused, naming the variable', () => {
  expect(() => readDiffSettings(readerOf({ DIFF_NOISE_RELATIVE: 'lots' }))).toThrow(/^DIFF_NOISE_RELATIVE must be a number of percent/);
  expect(() => readDiffSettings(readerOf({ DIFF_NOISE_ABSOLUTE: '101' }))).toThrow(/^DIFF_NOISE_ABSOLUTE /);
  expect(() => readDiffSettings(readerOf({ DIFF_MIN_COMPARISONS: '0' }))).toThrow(/^DIFF_MIN_COMPARISONS /);
});

test('DIFF_IGNORE reads operation:path,path;… and refuses whole answers, wildcards and unknown operations', () => {
  expect(readIgnoreRules('listCalls:data[].mid,data[].participants[].deviceId;getCall:data.mid')).toEqual([
    { operation: 'listCalls', path: 'data[].mid' },
    { operation: 'listCalls', path: 'data[].participants[].deviceId' },
    { operation: 'getCall', path: 'data.mid' },
  ]);
  for (const whole of ['data', 'data[]', 'error.code', '(status)', 'meta'])
    expect(() => readIgnoreRules(`listCalls:${whole}`), whole).toThrow(/would silence a whole answer/);
  expect(() => readIgnoreRules('listCalls:data[].*')).toThrow(/no wildcards/);
  expect(() => readIgnoreRules('markUnread:data.x')).toThrow(/^DIFF_IGNORE must be operation:path/);
});

test('the diff configuration: both sides required, the candidate read as the primary is and its bad values named by its own variables', () => {
  const primary = { CALLS_BASE_URL: 'http://p.invalid/v3', CHAT_BASE_URL: 'http://p.invalid/v3', API_KEY: 'primary-key' };
  const candidate = {
    CANDIDATE_CALLS_BASE_URL: 'http://c.invalid/v3',
    CANDIDATE_CHAT_BASE_URL: 'http://c.invalid/v3',
    CANDIDATE_API_KEY: 'candidate-key',
  };
  expect(() => loadDiffConfig(candidate)).toThrow(/^CALLS_BASE_URL is required by diff/);
  expect(() => loadDiffConfig(primary)).toThrow(/^CANDIDATE_CALLS_BASE_URL is required by diff/);
  expect(() => loadDiffConfig({ ...primary, ...candidate, CANDIDATE_CHAT_BASE_URL: 'ftp://c' })).toThrow(
    /^CANDIDATE_CHAT_BASE_URL must be an http\(s\) URL/,
  );
  expect(() => loadDiffConfig({ ...primary, ...candidate, CANDIDATE_API_KEY: '' })).toThrow(/^CANDIDATE_API_KEY is required/);
  const config = loadDiffConfig({ ...primary, ...candidate, CONFORMANCE_SEED: '5' });
  expect([config.primary.callsBaseUrl, config.candidate.callsBaseUrl]).toEqual(['http://p.invalid/v3', 'http://c.invalid/v3']);
  expect([config.primary.apiKey, config.candidate.apiKey, config.candidate.seed]).toEqual(['primary-key', 'candidate-key', 5]);
  expect([config.primary.allowWrites, config.candidate.allowWrites, config.reportDir]).toEqual([false, false, 'diff-report']);
});

test('ALLOW_WRITES=true: every side names its own mark-unread fixture, a missing one named by its own variable; read-only by default', () => {
  const primary = { CALLS_BASE_URL: 'http://p.invalid/v3', CHAT_BASE_URL: 'http://p.invalid/v3', API_KEY: 'primary-key' };
  const candidate = {
    CANDIDATE_CALLS_BASE_URL: 'http://c.invalid/v3',
    CANDIDATE_CHAT_BASE_URL: 'http://c.invalid/v3',
    CANDIDATE_API_KEY: 'candidate-key',
  };
  const fixtures = {
    GROUP_GUID: 'primary-group',
    MESSAGE_ID: '5',
    ACTING_UID: 'primary-member',
    CANDIDATE_GROUP_GUID: 'candidate-group',
    CANDIDATE_MESSAGE_ID: '9',
    CANDIDATE_ACTING_UID: 'candidate-member',
  };
  // The primary's fixture is never lent to the candidate: without writes, it has none.
  const readOnly = loadDiffConfig({ ...primary, ...candidate, ...fixtures, CANDIDATE_GROUP_GUID: '' });
  expect([readOnly.primary.allowWrites, readOnly.candidate.allowWrites, readOnly.candidate.unread]).toEqual([false, false, undefined]);
  const config = loadDiffConfig({ ...primary, ...candidate, ...fixtures, ALLOW_WRITES: 'true' });
  expect([config.primary.allowWrites, config.candidate.allowWrites]).toEqual([true, true]);
  expect(config.primary.unread).toEqual({ groupGuid: 'primary-group', messageId: 5, actingUid: 'primary-member' });
  expect(config.candidate.unread).toEqual({ groupGuid: 'candidate-group', messageId: 9, actingUid: 'candidate-member' });
  expect(() => loadDiffConfig({ ...primary, ...candidate, ...fixtures, ALLOW_WRITES: 'true', CANDIDATE_GROUP_GUID: '' })).toThrow(
    /^CANDIDATE_GROUP_GUID is required when ALLOW_WRITES=true/,
  );
  expect(() => loadDiffConfig({ ...primary, ...candidate, ...fixtures, ALLOW_WRITES: 'true', CANDIDATE_MESSAGE_ID: 'x' })).toThrow(
    /^CANDIDATE_MESSAGE_ID must be an integer/,
  );
  expect(() => loadDiffConfig({ ...primary, ...candidate, ...fixtures, ALLOW_WRITES: 'true', GROUP_GUID: '' })).toThrow(
    /^GROUP_GUID is required when ALLOW_WRITES=true/,
  );
  // A secondary's fixture needs the secondary itself; given one, it names its own fixture.
  expect(() => loadDiffConfig({ ...primary, ...candidate, SECONDARY_GROUP_GUID: 'g' })).toThrow(/^SECONDARY_CALLS_BASE_URL is required/);
  const secondary = {
    SECONDARY_CALLS_BASE_URL: 'http://s.invalid/v3',
    SECONDARY_CHAT_BASE_URL: 'http://s.invalid/v3',
    SECONDARY_API_KEY: 's',
  };
  expect(() => loadDiffConfig({ ...primary, ...candidate, ...fixtures, ...secondary, ALLOW_WRITES: 'true' })).toThrow(
    /^SECONDARY_GROUP_GUID is required when ALLOW_WRITES=true/,
  );
});
