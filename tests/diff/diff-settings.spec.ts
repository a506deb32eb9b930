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
