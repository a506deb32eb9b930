// results.sarif: the report's failed and warned requirements in SARIF 2.1.0 (the OASIS format that
// code scanning reads, as GitHub's upload-sarif action sends it), written beside results.json by a
// run and by the passive commands. One run; the suite is the tool, with one rule per requirement of
// the catalog (its text, the specification's section, its level); one result per requirement that
// failed (error), failed as a known failure (error, suppressed with the reason) or was not met at
// SHOULD (warning), with what was observed and the curl line that sends the request again, pointing
// at a line the repository holds (sarif-locations.ts). A result's fingerprint is made of what names
// the requirement, never of what a run drew (the seed, the target's ids, the message, the line), so
// that an alert follows a requirement from run to run and closes when the requirement passes.
import { createHash } from 'node:crypto';
import type { Catalog, Level, Requirement } from '../openapi/catalog.ts';
import type { ConformanceReport, RequirementResult, RequirementStatus } from '../core/results/report-model.ts';
import type { ReportWriter, SarifSettings } from '../core/run/config.ts';
import type { Redactor } from './redact.ts';
import { sarifLocator, type Locator } from './sarif-locations.ts';

/** The OASIS schema of the format, named in the file as its `$schema`. */
const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/**
 * The most a result's message holds: a failure's whole message can run to 20,000 characters
 * (conformance-reporter.ts), and code scanning shows a message in a panel, not a log. The curl line
 * that reproduces it is kept whole when the message is cut, unless it is itself longer than LINE_LIMIT.
 */
export const MESSAGE_LIMIT = 4_000;
const LINE_LIMIT = 2_000;

/** The key of each result's fingerprint among its partialFingerprints; a new version of how it is made gets a new key. */
export const FINGERPRINT_KEY = 'callsConformanceRequirement/v1';

export interface SarifContext {
  catalog: Catalog;
  /** SARIF_LOCATION and SARIF_PATH_PREFIX. */
  settings: SarifSettings;
  /** The redactor of the run's keys: every text from the report passes it once more. */
  redact: Redactor;
  /** The kind of command that wrote the report: a run's alerts and a passive command's are categories of their own. */
  writer: ReportWriter;
  /** Where the run was started: the files' paths are given from there. */
  cwd: string;
}

type ResultLevel = 'error' | 'warning';

/** The outcomes a result is written for, and its level. */
const RESULT_LEVELS: Partial<Record<RequirementStatus, ResultLevel>> = {
  fail: 'error',
  intermittent: 'error',
  'expected-fail': 'error',
  warn: 'warning',
};

const RULE_LEVELS: Readonly<Record<Level, 'error' | 'warning' | 'note'>> = { MUST: 'error', SHOULD: 'warning', MAY: 'note', INFO: 'note' };

/** results.sarif's text for `report`. */
export function renderSarif(report: ConformanceReport, context: SarifContext): string {
  const locate = sarifLocator(context.settings, context.cwd);
  const requirements = context.catalog.requirements;
  const judged = new Map(report.requirements.map((result) => [result.id, result]));
  const results = requirements.flatMap((requirement, ruleIndex) => {
    const result = judged.get(requirement.id);
    return result ? resultsOf(requirement, ruleIndex, result, report, { ...context, locate }) : [];
  });
  const { suite } = report.run;
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: suite.name,
            version: suite.version,
            semanticVersion: suite.version,
            rules: requirements.map((requirement) => ruleOf(requirement, context.catalog, judged.get(requirement.id))),
          },
        },
        automationDetails: { id: `${suite.name}/${context.writer}/` },
        invocations: [invocationOf(report, context.redact)],
        results,
        properties: { specification: report.specification, target: context.redact(report.run.target) },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function ruleOf(requirement: Requirement, catalog: Catalog, judged: RequirementResult | undefined) {
  const sectionTitle = catalog.sections[requirement.section] ?? '';
  const about = requirement.testable === false ? `Not testable through this interface: ${requirement.reason ?? ''}` : requirement.stance;
  return {
    id: requirement.id,
    shortDescription: { text: bounded(requirement.text, 1_000) },
    fullDescription: { text: requirement.text },
    help: {
      text: [`${requirement.level}, specification section ${requirement.section} (${sectionTitle}): ${requirement.text}`, about]
        .filter(Boolean)
        .join('\n'),
    },
    // The level the run judged it at: the strict profile holds some requirements to the deployment's convention.
    defaultConfiguration: { level: RULE_LEVELS[judged?.level ?? requirement.level] },
    properties: {
      section: requirement.section,
      sectionTitle,
      level: requirement.level,
      kind: requirement.kind,
      tags: ['conformance', requirement.level, `section-${requirement.section}`],
    },
  };
}

interface ResultContext extends SarifContext {
  locate: Locator;
}

/** The result of one requirement, when its outcome makes one. */
function resultsOf(
  requirement: Requirement,
  ruleIndex: number,
  result: RequirementResult,
  report: ConformanceReport,
  context: ResultContext,
) {
  const level = RESULT_LEVELS[result.status];
  if (level === undefined) return [];
  const failure = report.failures.find((record) => record.requirements.includes(result.id));
  const observation = context.redact(
    result.status === 'warn'
      ? result.warnings.join('\n')
      : (failure?.message ?? result.reason ?? 'See the conformance report (index.html) for what was seen.'),
  );
  const reproduce = reproduceLine(observation);
  const { uri, line } = context.locate(requirement);
  return [
    {
      ruleId: requirement.id,
      ruleIndex,
      level,
      kind: 'fail',
      message: { text: messageOf(`${headline(result)}: ${requirement.text}\n\n${observation}`, reproduce) },
      locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: line } } }],
      partialFingerprints: { [FINGERPRINT_KEY]: fingerprintOf(requirement) },
      ...(result.status === 'expected-fail' && {
        suppressions: [{ kind: 'external', status: 'accepted', justification: context.redact(result.expected?.reason ?? '') }],
      }),
      properties: {
        status: result.status,
        level: result.level,
        section: result.section,
        ...(reproduce !== undefined && { reproduce }),
        ...(failure && { rerun: context.redact(failure.rerun), test: context.redact(`${failure.location} ${failure.test}`) }),
        ...(result.attempts && { attempts: result.attempts }),
      },
    },
  ];
}

/** What the result says first: the requirement, its level, and how it ended. */
function headline(result: RequirementResult): string {
  const named = `${result.id} (${result.level}, section ${result.section})`;
  switch (result.status) {
    case 'intermittent':
      return `${named} failed intermittently, in ${result.attempts?.violated} of ${result.attempts?.judged} attempts`;
    case 'expected-fail':
      return `${named} failed, as CONFORMANCE_EXPECTATIONS expects`;
    case 'warn':
      return `${named} was not met`;
    default:
      return `${named} failed`;
  }
}

/**
 * The message, at most MESSAGE_LIMIT characters: cut, it says so, and ends with the line that
 * reproduces the failure when the cut removed it.
 */
function messageOf(text: string, reproduce: string | undefined): string {
  if (text.length <= MESSAGE_LIMIT) return text;
  const tail = `\n… (cut at ${MESSAGE_LIMIT} of ${text.length} characters; index.html has the whole message)`;
  const again = reproduce !== undefined ? `\nReproduce with:\n${reproduce}` : '';
  return `${text.slice(0, MESSAGE_LIMIT - tail.length - again.length)}${tail}${again}`;
}

/**
 * The first curl line of a failure message: the suite writes it after `Reproduce with:`, built from
 * values already quoted for the shell (core/results/shell-quote.ts). None when it is longer than
 * LINE_LIMIT: a line cut short would send another request, or none.
 */
function reproduceLine(message: string): string | undefined {
  const lines = message.split('\n').map((line) => line.trim());
  const after = lines.findIndex((line) => line === 'Reproduce with:');
  const curl = after < 0 ? undefined : lines[after + 1];
  return curl?.startsWith('curl ') && curl.length <= LINE_LIMIT ? curl : undefined;
}

/**
 * The same for the same requirement whatever the run drew: its id and the operations the catalog
 * says it concerns. Never the seed, the ids of the target's calls, the message or the line.
 */
function fingerprintOf(requirement: Requirement): string {
  return createHash('sha256')
    .update(`${requirement.id}\n${(requirement.operations ?? []).join(',')}`)
    .digest('hex');
}

function invocationOf(report: ConformanceReport, redact: Redactor) {
  return {
    // The run judged: a non-conformant target is a finished analysis; an inconclusive one is not.
    executionSuccessful: report.exitCode !== 3,
    startTimeUtc: report.run.startedAt,
    endTimeUtc: report.run.endedAt,
    exitCode: report.exitCode,
    properties: {
      verdict: report.verdict,
      verdictReason: bounded(redact(report.verdictReason), MESSAGE_LIMIT),
      profile: report.run.profile,
      seed: report.run.seed,
    },
  };
}

const bounded = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);
