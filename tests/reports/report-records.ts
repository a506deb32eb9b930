// Hand-made test records and run metadata for the reporter's unit tests: what the conformance
// reporter would have collected from a run, without running one.
import type { RunMetadata, TestRecord } from '../../core/results/report-model.ts';

/** A test record; unless given, its one attempt is the record itself. */
export function testRecord(overrides: Partial<TestRecord> & Pick<TestRecord, 'requirements'>): TestRecord {
  const id = overrides.requirements[0] ?? 'UNTRACED';
  const status = overrides.status ?? 'passed';
  return {
    title: `${id} a test`,
    location: `tests/example/${id.toLowerCase()}.spec.ts:1`,
    status: 'passed',
    violations: [],
    warnings: [],
    observations: [],
    errors: [],
    durationMs: 5,
    requests: [],
    seed: 42,
    readings: [],
    credited: [],
    attempts: [
      { status, violated: [...new Set((overrides.violations ?? []).map((note) => note.requirement))], errors: overrides.errors ?? [] },
    ],
    ...overrides,
  };
}

export const metadata: RunMetadata = {
  suite: { name: 'calls-conformance', version: '0.0.0-test' },
  openapi: { file: 'openapi/calls-api.openapi.yaml', sha256: 'a'.repeat(64) },
  catalog: { file: 'openapi/requirements.yaml', sha256: 'b'.repeat(64) },
  profile: 'spec',
  seed: 42,
  runs: 20,
  target: 'a hand-made run',
  allowWrites: true,
  maxAnswerAgeSeconds: 10,
  configuration: { apiKey: '[redacted]' },
};
