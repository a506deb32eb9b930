// The kill matrix's plan (tests/faults/matrix-rows.ts): every fault has a row standing under each
// of its readings and one living; the clean reference runs the whole suite everywhere; the sample that
// runs whole rotates with the key and covers the catalog; a row's tests are exactly its requirements'.
import { test, expect } from '@playwright/test';
import { FAULTS } from '../../reference/faults/catalog.ts';
import { readingsOf } from '../../reference/faults/fault.ts';
import { FILTER_FAULTS } from '../../reference/faults/filters.ts';
import { PAGINATION_FAULTS } from '../../reference/faults/pagination.ts';
import { GET_CALL_FAULTS } from '../../reference/faults/get-call.ts';
import { ALSO_SEEN_BY, matrixBatches, testsHolding, WHOLE_SAMPLE_EVERY, wholeSample } from '../faults/matrix-rows.ts';

const rowsOf = (whole: 'sample' | 'all', key = 'a-commit') => matrixBatches({ whole, key }).flatMap((batch) => batch.rows);

test('every fault has a row under each of its readings standing, and one living; every row a title of its own', () => {
  const rows = rowsOf('sample');
  for (const fault of FAULTS) {
    // Rows answering old (matrix-rows.ts's agedRows) are counted apart, below.
    const own = rows.filter(
      (row) => row.fault?.name === fault.name && row.options.profile === undefined && row.options.answerAge === undefined,
    );
    const standing = own.filter((row) => row.options.live === undefined).map((row) => row.options.readings);
    expect(standing.sort(), fault.name).toEqual([...readingsOf(fault)].sort());
    expect(
      own.filter((row) => row.options.live !== undefined),
      fault.name,
    ).toHaveLength(1);
  }
  expect(new Set(rows.map((row) => row.title)).size).toBe(rows.length);
});

test('every filter, pagination and Get Call fault has one row answering old, living; the clean reference answers old on several seeds, living and standing', () => {
  const rows = rowsOf('sample');
  const aged = rows.filter((row) => row.options.answerAge !== undefined);
  for (const fault of [...FILTER_FAULTS, ...PAGINATION_FAULTS, ...GET_CALL_FAULTS]) {
    const own = aged.filter((row) => row.fault?.name === fault.name);
    expect(own, fault.name).toHaveLength(1);
    expect(own[0]!.options.live, fault.name).toBeDefined();
    expect(own[0]!.expected, fault.name).not.toBe('passed');
  }
  const clean = aged.filter((row) => row.fault === undefined);
  expect(clean.length).toBeGreaterThanOrEqual(4);
  expect(new Set(clean.map((row) => row.options.conformanceSeed)).size).toBe(clean.length);
  expect(clean.some((row) => row.options.live === undefined)).toBe(true);
  expect(new Set(clean.map((row) => row.options.readings)).size).toBeGreaterThan(1);
  for (const row of clean) expect(row.expected).toBe('passed');
});

test('the clean reference and the strict faults under the spec profile run the whole suite, with a user’s retries, and must pass', () => {
  const mustPass = rowsOf('sample').filter((row) => row.expected === 'passed');
  expect(mustPass.length).toBeGreaterThanOrEqual(19 + FAULTS.filter((fault) => fault.profile === 'strict').length);
  for (const row of mustPass) expect(row.options.grep, row.title).toBeUndefined();
  for (const row of mustPass) expect(row.options.retries, row.title).toBeUndefined();
});

test('a fault row not in the sample runs the tests of its requirements and of those ALSO_SEEN_BY names, without retries', () => {
  const rows = rowsOf('sample').filter((row) => row.fault && row.expected !== 'passed' && row.options.grep !== undefined);
  expect(rows.length).toBeGreaterThan(FAULTS.length);
  for (const row of rows) {
    expect(row.options.grep).toBe(testsHolding([...row.fault!.requirements, ...(ALSO_SEEN_BY[row.fault!.name] ?? [])]));
    expect(row.options.retries).toBe(0);
  }
  for (const name of Object.keys(ALSO_SEEN_BY)) expect(FAULTS.map((fault) => fault.name)).toContain(name);
});

test('the tests a row runs are those led by its requirement ids, not by ids they are the start of', () => {
  const grep = new RegExp(testsHolding(['CALLS-LIST-FILTER-UID', 'CALL-FIELD-TYPE']));
  expect(grep.test('calls-list/filter-each.spec.ts CALLS-LIST-FILTER-UID for any uid seen in the data')).toBe(true);
  expect(grep.test('calls/fields.spec.ts CALL-FIELD-TYPE is one of the values')).toBe(true);
  expect(grep.test('calls/fields.spec.ts CALL-FIELD-TYPE-EXTRA is something else')).toBe(false);
  expect(grep.test('calls-list/filter-each.spec.ts CALLS-LIST-FILTER-UIDS for any')).toBe(false);
  expect(grep.test('calls-list/filter-each.spec.ts XCALLS-LIST-FILTER-UID for any')).toBe(false);
});

test('the whole-suite sample is the same for the same commit, differs between commits, and successive commits cover the catalog', () => {
  expect([...wholeSample(FAULTS, 'commit-1')]).toEqual([...wholeSample(FAULTS, 'commit-1')]);
  const covered = new Set<string>();
  const samples = Array.from({ length: 200 }, (_, index) => wholeSample(FAULTS, `commit-${index}`));
  for (const sample of samples) {
    expect(sample.size).toBeGreaterThanOrEqual(Math.floor(FAULTS.length / WHOLE_SAMPLE_EVERY));
    sample.forEach((name) => covered.add(name));
  }
  expect(covered.size).toBe(FAULTS.length);
  expect(new Set(samples.map((sample) => [...sample].join())).size).toBe(WHOLE_SAMPLE_EVERY);
});

test('the sampled faults’ first standing rows run the whole suite without retries; KILL_MATRIX_WHOLE=all runs every standing row whole', () => {
  const sampled = wholeSample(FAULTS, 'a-commit');
  const whole = rowsOf('sample').filter((row) => row.fault && row.expected !== 'passed' && row.options.grep === undefined);
  expect(new Set(whole.map((row) => row.fault!.name))).toEqual(sampled);
  for (const row of whole) expect(row.options.retries).toBe(0);
  const all = rowsOf('all').filter((row) => row.fault && row.expected !== 'passed' && row.options.live === undefined);
  for (const row of all) expect(row.options.grep, row.title).toBeUndefined();
});
