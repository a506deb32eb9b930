// The JUnit rendering, for CI systems: one test suite per section of the specification and
// one test case per requirement, so a CI dashboard shows requirements, not test files. A failed
// requirement is a <failure> (an intermittent one says so), one the suite could not judge an
// <error>; skipped and uncovered ones, expected failures, and blocked ones (not judged because the
// target broke a requirement they stand on, which is a <failure> of its own) are <skipped> with the
// reason; a SHOULD not met passes with its warnings as output. A requirement the interface cannot
// show is no test at all, skipped or otherwise: dashboards count <skipped> cases as tests a run left
// out, so it is a `not-testable` property of its section, with the catalog's reason.
import type { ConformanceReport, RequirementResult } from '../core/results/report-model.ts';

/** Text safe in XML content and attributes; characters XML 1.0 cannot hold at all are dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const SKIPPED: ReadonlyArray<RequirementResult['status']> = ['skip', 'uncovered', 'expected-fail', 'blocked'];

const isTestCase = (result: RequirementResult) => result.status !== 'not-testable';

export function renderJunit(report: ConformanceReport): string {
  const failuresByRequirement = new Map<string, string[]>();
  for (const failure of report.failures) {
    for (const id of failure.requirements)
      failuresByRequirement.set(id, [
        ...(failuresByRequirement.get(id) ?? []),
        // The trace id a server's logs find the test's requests by (its traceparent), on a line of its own.
        `${failure.test}\n${failure.traceId === undefined ? '' : `Trace id: ${failure.traceId}\n`}${failure.message}`,
      ]);
  }
  const suites = report.sections.map((section) => {
    const inSection = report.requirements.filter((result) => result.section === section.id);
    const cases = inSection.filter(isTestCase);
    const count = (status: ReadonlyArray<RequirementResult['status']>) => cases.filter((result) => status.includes(result.status)).length;
    const body = [
      ...notTestableProperties(inSection.filter((result) => !isTestCase(result))),
      ...cases.map((result) => testCase(result, `${section.id} ${section.title}`, failuresByRequirement.get(result.id) ?? [])),
    ].join('\n');
    return `  <testsuite name="${xmlEscape(`${section.id} ${section.title}`)}" tests="${cases.length}" failures="${count(['fail', 'intermittent'])}" errors="${count(['error'])}" skipped="${count(SKIPPED)}">${body === '' ? '' : `\n${body}`}\n  </testsuite>`;
  });
  const totals = report.summary.requirements;
  const properties = [
    ['verdict', report.verdict],
    ['verdictReason', report.verdictReason],
    ['profile', report.run.profile],
    ['seed', String(report.run.seed)],
    ['suiteVersion', report.run.suite.version],
    ['target', report.run.target],
    [
      'notTestable',
      `${totals['not-testable']} requirement(s) the interface cannot show, no test case each: see each section's not-testable properties`,
    ],
    // An operation no request went to: the verdict holds for the others only.
    ...(report.unexercised ?? []).map((entry) => ['unexercised', `${entry.name}: ${entry.reason}`]),
  ]
    .map(([name, value]) => `    <property name="${name}" value="${xmlEscape(value!)}"/>`)
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(`Conformance: ${report.specification}`)}" tests="${report.requirements.length - totals['not-testable']}" failures="${totals.fail + totals.intermittent}" errors="${totals.error}" skipped="${SKIPPED.reduce((sum, status) => sum + totals[status], 0)}" time="${(report.run.durationMs / 1000).toFixed(3)}">`,
    '  <properties>',
    properties,
    '  </properties>',
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function testCase(result: RequirementResult, className: string, failures: string[]): string {
  const open = `    <testcase classname="${xmlEscape(className)}" name="${xmlEscape(`${result.id} [${result.level}] ${result.text}`)}">`;
  const inner = (() => {
    switch (result.status) {
      case 'fail':
        return `      <failure message="${xmlEscape(`${result.id} failed`)}" type="${result.level}">${xmlEscape(failures.join('\n\n') || 'See the conformance report.')}</failure>`;
      case 'intermittent':
        return `      <failure message="${xmlEscape(`${result.id} failed intermittently, in ${result.attempts?.violated} of ${result.attempts?.judged} attempts`)}" type="${result.level}">${xmlEscape(failures.join('\n\n') || 'See the conformance report.')}</failure>`;
      case 'expected-fail':
        return `      <skipped message="${xmlEscape(`expected failure: ${result.expected?.reason ?? ''}`)}"/>`;
      case 'error':
        return `      <error message="${xmlEscape(result.reason ?? 'not judged')}"/>`;
      case 'blocked':
        return `      <skipped message="${xmlEscape(result.reason ?? `Not judged: blocked by ${result.blockedBy?.join(', ')}`)}"/>`;
      case 'not-testable':
        return '';
      case 'skip':
      case 'uncovered':
        return `      <skipped message="${xmlEscape(`${result.status}: ${result.reason ?? ''}`)}"/>`;
      case 'warn':
        return `      <system-out>${xmlEscape(result.warnings.map((warning) => `WARN ${warning}`).join('\n'))}</system-out>`;
      case 'pass':
        return result.observations.length > 0 ? `      <system-out>${xmlEscape(result.observations.join('\n'))}</system-out>` : '';
    }
  })();
  return inner === '' ? open.replace(/>$/, '/>') : `${open}\n${inner}\n    </testcase>`;
}

/** The section's requirements the interface cannot show, as properties: listed, with why, and counted as no test. */
function notTestableProperties(results: readonly RequirementResult[]): string[] {
  if (results.length === 0) return [];
  const properties = results.map(
    (result) => `      <property name="not-testable" value="${xmlEscape(`${result.id} [${result.level}]: ${result.reason ?? ''}`)}"/>`,
  );
  return ['    <properties>', ...properties, '    </properties>'];
}
