// results.sarif of hand-made reports: valid SARIF 2.1.0 by the OASIS schema, one rule per
// requirement, one result per failed or warned requirement at the level its outcome makes, each at a
// line that holds its requirement (or its schema or operation), messages bounded and redacted, and
// fingerprints that follow the requirement whatever the run drew.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { loadCatalog } from '../../openapi/catalog.ts';
import { buildReport } from '../../reports/build-report.ts';
import { redactorFor } from '../../reports/redact.ts';
import { FINGERPRINT_KEY, MESSAGE_LIMIT, renderSarif, type SarifContext } from '../../reports/render-sarif.ts';
import type { TestRecord } from '../../core/results/report-model.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';
import { metadata, testRecord } from './report-records.ts';
import { pointedLine, sarifProblems, type SarifLog } from './sarif-checks.ts';

const catalog = loadCatalog();
const KEY = 'sarif-selftest-key-5e4d3c2b1a';
const context: SarifContext = {
  catalog,
  settings: { location: 'catalog' },
  redact: redactorFor({ API_KEY: KEY }),
  writer: 'run',
  cwd: PROJECT_ROOT,
};
const curl = (sessionId: string) => `curl -sS -X GET -H "apikey: $API_KEY" 'http://127.0.0.1:4000/v3/calls/${sessionId}'`;
const failureMessage = (sessionId: string, extra = '') =>
  `CALLS-GET-OK [get_call_identity] Get Call answered another call than the one asked for\n  Expected: sessionId "${sessionId}"\n  Received: sessionId "v1.other"${extra}\n  GET http://127.0.0.1:4000/v3/calls/${sessionId} → 200\n  Reproduce with:\n  ${curl(sessionId)}`;

function records(sessionId: string, seed: number, extra = ''): TestRecord[] {
  return [
    testRecord({
      requirements: ['CALLS-GET-OK'],
      status: 'failed',
      seed,
      violations: [{ requirement: 'CALLS-GET-OK', text: 'Get Call answered another call than the one asked for' }],
      errors: [failureMessage(sessionId, extra)],
    }),
    // Failed, then passed when retried: intermittent.
    testRecord({
      requirements: ['CALLS-GET-NOT-FOUND'],
      status: 'passed',
      attempts: [
        { status: 'failed', violated: ['CALLS-GET-NOT-FOUND'], errors: ['CALLS-GET-NOT-FOUND answered 200'] },
        { status: 'passed', violated: [], errors: [] },
      ],
    }),
    testRecord({
      requirements: ['CALL-MID-ON-STARTED-CALLS'],
      warnings: [{ requirement: 'CALL-MID-ON-STARTED-CALLS', text: 'mid was null' }],
    }),
    testRecord({
      requirements: ['CALL-FIELD-TYPE'],
      status: 'failed',
      violations: [{ requirement: 'CALL-FIELD-TYPE', text: 'type "screenshare"' }],
      errors: ['CALL-FIELD-TYPE [response_schema_conformance] type "screenshare"'],
    }),
    testRecord({ requirements: ['CALLS-LIST-OK'] }),
  ];
}

const expectations = { file: 'known.yaml', entries: [{ requirement: 'CALL-FIELD-TYPE', reason: 'until the fix ships', expired: false }] };
const reportOf = (sessionId: string, seed: number, extra = '') =>
  buildReport(catalog, {
    metadata: { ...metadata, seed, expectations },
    tests: records(sessionId, seed, extra),
    startedAt: new Date('2026-12-01T10:00:00Z'),
    durationMs: 1000,
    runnerStatus: 'failed',
    runnerErrors: [],
  });
const sarifOf = (sessionId: string, seed: number, extra = '', given: SarifContext = context) =>
  JSON.parse(renderSarif(reportOf(sessionId, seed, extra), given)) as SarifLog;

test('a report with failures, an intermittent failure, a warning and a known failure is valid SARIF 2.1.0 with a result for each', () => {
  const log = sarifOf('v1.us.first', 7);
  expect(sarifProblems(log)).toEqual([]);
  expect(log.version).toBe('2.1.0');
  expect(log.runs).toHaveLength(1);
  const [run] = log.runs;
  expect(run!.tool.driver).toMatchObject({ name: 'calls-conformance', version: '0.0.0-test' });
  expect(run!.automationDetails?.id).toBe('calls-conformance/run/');
  // A rule per requirement, with its section and level, in the catalog's order (ruleIndex points there).
  expect(run!.tool.driver.rules.map((rule) => rule.id)).toEqual(catalog.requirements.map((requirement) => requirement.id));
  expect(run!.tool.driver.rules.find((rule) => rule.id === 'CALLS-GET-OK')?.properties).toMatchObject({ section: '4.2', level: 'MUST' });
  const results = new Map(run!.results.map((result) => [result.ruleId, result]));
  expect([...results.keys()].sort()).toEqual(['CALL-FIELD-TYPE', 'CALL-MID-ON-STARTED-CALLS', 'CALLS-GET-NOT-FOUND', 'CALLS-GET-OK']);
  expect(results.get('CALLS-GET-OK')).toMatchObject({ level: 'error', properties: { status: 'fail', reproduce: curl('v1.us.first') } });
  expect(results.get('CALLS-GET-OK')!.message.text).toContain('Expected: sessionId "v1.us.first"');
  expect(results.get('CALLS-GET-NOT-FOUND')).toMatchObject({ level: 'error', properties: { status: 'intermittent' } });
  expect(results.get('CALLS-GET-NOT-FOUND')!.message.text).toContain('failed intermittently, in 1 of 2 attempts');
  expect(results.get('CALL-MID-ON-STARTED-CALLS')).toMatchObject({ level: 'warning', properties: { status: 'warn' } });
  expect(results.get('CALL-FIELD-TYPE')).toMatchObject({
    level: 'error',
    suppressions: [{ kind: 'external', justification: 'until the fix ships' }],
  });
  for (const result of run!.results) expect(run!.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
});

test("by default every result points at its requirement's line in the catalog; SARIF_LOCATION=openapi at its schema or operation", () => {
  for (const result of sarifOf('v1.us.first', 7).runs[0]!.results) {
    expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe('openapi/requirements.yaml');
    expect(pointedLine(result)).toBe(`  - id: ${result.ruleId}`);
  }
  const openapi = sarifOf('v1.us.first', 7, '', { ...context, settings: { location: 'openapi' } });
  expect(sarifProblems(openapi)).toEqual([]);
  const pointed = new Map(openapi.runs[0]!.results.map((result) => [result.ruleId, result]));
  for (const result of pointed.values())
    expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe('openapi/calls-api.openapi.yaml');
  // Get Call's operation; a field requirement's schema (CallType, which CALL-FIELD-TYPE names).
  expect(pointedLine(pointed.get('CALLS-GET-OK')!)).toBe('    get:');
  expect(
    readFileSync(`${PROJECT_ROOT}/openapi/calls-api.openapi.yaml`, 'utf8').split('\n')[
      pointed.get('CALLS-GET-OK')!.locations[0]!.physicalLocation.region.startLine
    ],
  ).toBe('      operationId: getCall');
  expect(pointedLine(pointed.get('CALL-FIELD-TYPE')!)).toBe('    CallType:');
});

test('SARIF_PATH_PREFIX names the files where the repository holds them; a run started elsewhere names them by file URL', () => {
  const prefixed = sarifOf('v1.us.first', 7, '', { ...context, settings: { location: 'catalog', pathPrefix: 'contracts/calls' } });
  expect(prefixed.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('contracts/calls/requirements.yaml');
  const root = sarifOf('v1.us.first', 7, '', { ...context, settings: { location: 'openapi', pathPrefix: '' } });
  expect(root.runs[0]!.results.map((result) => result.locations[0]!.physicalLocation.artifactLocation.uri)).toContain(
    'calls-api.openapi.yaml',
  );
  const elsewhere = sarifOf('v1.us.first', 7, '', { ...context, cwd: '/tmp' });
  const result = elsewhere.runs[0]!.results[0]!;
  expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toMatch(/^file:\/\/\/.*\/openapi\/requirements\.yaml$/);
  expect(pointedLine(result)).toBe(`  - id: ${result.ruleId}`);
});

test('the same fault found with another seed, on other calls, has the same fingerprint; another requirement has another', () => {
  const first = sarifOf('v1.us.first', 7).runs[0]!.results;
  const second = sarifOf('v1.us.second-call-drawn', 99, ' (and more)').runs[0]!.results;
  const fingerprint = (results: typeof first, id: string) =>
    results.find((result) => result.ruleId === id)!.partialFingerprints[FINGERPRINT_KEY];
  expect(fingerprint(first, 'CALLS-GET-OK')).toMatch(/^[0-9a-f]{64}$/);
  expect(fingerprint(second, 'CALLS-GET-OK')).toBe(fingerprint(first, 'CALLS-GET-OK'));
  expect(first.find((result) => result.ruleId === 'CALLS-GET-OK')!.message.text).not.toBe(
    second.find((result) => result.ruleId === 'CALLS-GET-OK')!.message.text,
  );
  expect(new Set(first.map((result) => result.partialFingerprints[FINGERPRINT_KEY])).size).toBe(first.length);
});

test('a long message is cut to the bound and keeps its curl line; a key is redacted; what a target sent stays JSON text', () => {
  const hostile = `\n  Received too: ${KEY} "quotes" </script> \u001b[31m \u202e ${'x'.repeat(30_000)}`;
  const text = renderSarif(reportOf('v1.us.first', 7, hostile), context);
  expect(text).not.toContain(KEY);
  const log = JSON.parse(text) as SarifLog;
  expect(sarifProblems(log)).toEqual([]);
  const message = log.runs[0]!.results.find((result) => result.ruleId === 'CALLS-GET-OK')!.message.text;
  expect(message.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
  expect(message).toContain('Received too: $API_KEY "quotes"');
  expect(message).toMatch(/cut at 4000 of \d+ characters/);
  expect(message.endsWith(`Reproduce with:\n${curl('v1.us.first')}`)).toBe(true);
});

test('the schema check has teeth: a result at a level SARIF has not, or without its message, is refused', () => {
  const log = sarifOf('v1.us.first', 7);
  const broken = structuredClone(log) as unknown as { runs: Array<{ results: Array<Record<string, unknown>> }> };
  broken.runs[0]!.results[0]!.level = 'fatal';
  delete broken.runs[0]!.results[1]!.message;
  const problems = sarifProblems(broken);
  expect(problems.some((problem) => problem.startsWith('/runs/0/results/0/level'))).toBe(true);
  expect(problems.some((problem) => problem.includes("must have required property 'message'"))).toBe(true);
});

test('a clean report has every rule and no result', () => {
  const clean = buildReport(catalog, {
    metadata,
    tests: [testRecord({ requirements: ['CALLS-LIST-OK'] })],
    startedAt: new Date('2026-12-01T10:00:00Z'),
    durationMs: 1000,
    runnerStatus: 'passed',
    runnerErrors: [],
  });
  const log = JSON.parse(renderSarif(clean, context)) as SarifLog;
  expect(sarifProblems(log)).toEqual([]);
  expect(log.runs[0]!.results).toEqual([]);
  expect(log.runs[0]!.tool.driver.rules).toHaveLength(catalog.requirements.length);
});
