// The reports of a passive run (recorded traffic judged by passive/judge.ts): the same
// HTML, results.json, JUnit and SARIF as a run of the suite, built by the same pure report builder from
// one record per requirement the traffic showed, plus a job summary. The verdict never claims more
// than traffic can show: VIOLATIONS FOUND (exit 1) or NO VIOLATIONS IN N EXCHANGES (exit 0; 3 when
// the traffic held no exchange of the three operations), never CONFORMANT. Every string written
// passes the judge's redactor (each secret the traffic carried) and the configured keys' redactor.
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { effectiveLevel, loadCatalog, type Catalog } from '../openapi/catalog.ts';
import { environment, type Env, type SuiteConfig } from '../core/run/config.ts';
import { curlFor, type Exchange } from '../core/transport/exchange.ts';
import { traceIdOf } from '../core/transport/trace-context.ts';
import { WAITING_FOR_READINGS, type PassiveResult, type PassiveViolation, type RequirementTally } from './judge.ts';
import { STATE_FILE, type PassiveState } from './judge-state.ts';
import type { Expectations } from '../core/results/expectations.ts';
import { violationCount } from '../core/checks/violation.ts';
import { isExpired } from '../core/results/expectations.ts';
import { buildReport } from '../reports/build-report.ts';
import { redactorFor } from '../reports/redact.ts';
import { visible } from '../core/results/visible.ts';
import { renderHtml } from '../reports/render-html.ts';
import { walksLine } from '../reports/walks-line.ts';
import { renderJunit } from '../reports/render-junit.ts';
import { renderSarif } from '../reports/render-sarif.ts';
import type { ConformanceReport, Note, RunMetadata, TestRecord } from '../core/results/report-model.ts';
import { runMetadata } from '../reports/run-metadata.ts';
import { REPORT_FILES } from '../reports/conformance-reporter.ts';
import { FAILING } from '../reports/requirement-matrix.ts';
import { cell, coverageTable } from '../reports/coverage-summary.ts';
import { coverageOf } from '../core/coverage/model.ts';
import { PASSIVE_FILES, takeOverReportFolder } from '../reports/report-folder.ts';
import type { HistorySettings } from '../core/history/history-settings.ts';
import { recordRun } from '../core/history/record-run.ts';
import { historyMarkdown } from '../reports/history-text.ts';

const SUMMARY_FILE = PASSIVE_FILES.summary;

export interface PassiveReportOptions {
  /** Where the reports go (created when missing). */
  dir: string;
  /** What was read: the HAR files, or `proxy → TARGET`. */
  sources: string[];
  /** The command that judges the same traffic again, for the failures' "rerun" line. */
  rerun: string;
  catalog?: Catalog;
  /** The passive run's configuration (loadPassiveConfig), read once by its command: what the report's metadata names. */
  config: SuiteConfig;
  /** Known failures (CONFORMANCE_EXPECTATIONS), as for a run. */
  expectations?: Expectations;
  env?: Env;
  /**
   * A judging proxy's report: `interim` while it still runs (the traffic so far, as of the result's
   * endedAt), `final` once it has stopped. Absent for recorded traffic, which is always whole.
   */
  stage?: 'interim' | 'final';
  /** What the verdict's reason must also say (a merge's caveats). */
  notes?: string[];
  /** Written beside the reports (STATE_FILE), so that reports of several proxies merge (judge-state.ts). */
  state?: PassiveState;
  /** HISTORY_FILE and HISTORY_LIMIT: the judged traffic's line is added to the history (har). */
  history?: HistorySettings;
}

export interface WrittenPassiveReport {
  report: ConformanceReport;
  exitCode: 0 | 1 | 3;
  /** The lines the console shows: the verdict, its reason and where the report is. */
  console: string;
}

/**
 * The command lines of a report (curl, rerun), kept out of its last redaction pass. That pass
 * replaces each secret the traffic carried wherever its text appears, and a recording can choose a
 * secret that matches part of a line's quoting (`' -H '`, `$API_KEY"`): cut out, it would unbalance
 * the quotes, and a value the line gives as text (`$(touch pwned)`) would run when pasted. So a line
 * is built from values already redacted, is withheld if the pass would still change it, and stands
 * in the report as a random token until the pass is done.
 */
class CommandLines {
  private readonly lines = new Map<string, string>();
  constructor(private readonly clean: (text: string) => string) {}

  /** A token that `restore` turns into the line. */
  hold(line: string): string {
    const token = randomUUID();
    this.lines.set(token, this.clean(line) === line ? line : WITHHELD);
    return token;
  }

  curl(exchange: Exchange): string {
    return this.hold(curlFor(redactedRequest(exchange, this.clean)));
  }

  restore(text: string): string {
    return text.replace(TOKEN, (token) => this.lines.get(token) ?? token);
  }
}

const TOKEN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const WITHHELD = '(command withheld: the redaction of a secret the traffic carried would have cut into it)';

/** The exchange with every value of its request passed through `clean`, as the report's text is. */
function redactedRequest(exchange: Exchange, clean: (text: string) => string): Exchange {
  const { request } = exchange;
  const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  return {
    ...exchange,
    request: {
      method: clean(request.method),
      url: clean(request.url),
      // A header as the line shows it, `name: value`, so that a pattern over both (`apikey: …`) is met.
      headers: Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => {
          const header = clean(`${name}: ${value}`);
          const colon = header.indexOf(': ');
          return colon < 0 ? [header, ''] : [header.slice(0, colon), header.slice(colon + 2)];
        }),
      ),
      ...(request.variableHeaders && { variableHeaders: request.variableHeaders.map(clean) }),
      ...(body !== undefined && { body: clean(body) }),
    },
  };
}

/** One violation as a failure message shows it: what, where, and how to send the request again. */
function describeViolation(violation: PassiveViolation, lines: CommandLines): string {
  const related = violation.related && violation.related.length > 0 ? ` (against ${violation.related.join('; ')})` : '';
  const text = [
    `${violation.title}`,
    `  Expected: ${violation.expected}`,
    `  Received: ${violation.received}`,
    ...(violation.alike ? [`  …and ${violation.alike} more of ${violation.requirement} in the same exchange`] : []),
    `  Exchange: ${violation.source}${related}`,
    ...traceLine(violation),
  ];
  if (violation.exchange) text.push('  Reproduce with:', `  ${lines.curl(violation.exchange)}`);
  return text.join('\n');
}

/**
 * The trace id the recorded request carried (a W3C traceparent: the suite's own requests, or any
 * traced client's), so that the server's logs of that exchange can be found; none when it had none.
 */
function traceLine(violation: PassiveViolation): string[] {
  const traceId = violation.exchange && traceIdOf(violation.exchange.request.headers);
  return traceId === undefined ? [] : [`  Trace id: ${traceId}`];
}

function recordsOf(result: PassiveResult, catalog: Catalog, location: string, lines: CommandLines): TestRecord[] {
  const records = catalog.requirements.map((requirement) => recordOf(requirement, result, location, lines));
  // The readings learned from the traffic travel with the first record, as a run's do with its tests.
  if (records[0]) records[0] = { ...records[0], readings: result.readings };
  return records;
}

type Requirement = Catalog['requirements'][number];

/** One requirement's record: not judged, judged and not violated, or violated (failed, warned or observed by its level). */
function recordOf(requirement: Requirement, result: PassiveResult, location: string, lines: CommandLines): TestRecord {
  const tally = result.requirements.get(requirement.id);
  const base = {
    location,
    requirements: [requirement.id],
    warnings: [] as Note[],
    observations: [] as Note[],
    durationMs: 0,
    requests: [],
    readings: [],
    credited: [],
  };
  if (!tally) {
    const reason = result.notJudged.get(requirement.id) ?? 'the recorded traffic could not show it';
    return {
      ...base,
      title: `${requirement.id}: not judged from recorded traffic`,
      status: 'skipped',
      skipReason: `Not judged from recorded traffic: ${reason}.`,
      violations: [],
      errors: [],
      attempts: [{ status: 'skipped', violated: [], errors: [] }],
    };
  }
  const title = `${requirement.id} judged on ${tally.judged} recorded exchange(s) or call(s)`;
  if (tally.violations === 0)
    return { ...base, title, status: 'passed', violations: [], errors: [], attempts: [{ status: 'passed', violated: [], errors: [] }] };
  return violatedRecord({ ...base, title }, requirement, tally, effectiveLevel(requirement, result.profile), lines);
}

/** A requirement the traffic violated: a MUST fails, a SHOULD warns, any other is an observation. */
function violatedRecord(
  base: Omit<TestRecord, 'status' | 'violations' | 'errors' | 'attempts'>,
  requirement: Requirement,
  tally: RequirementTally,
  level: ReturnType<typeof effectiveLevel>,
  lines: CommandLines,
): TestRecord {
  // The examples count what they stand for (violation.ts: alike).
  const described = violationCount(tally.examples);
  const more =
    tally.violations > described
      ? `\n\n… and ${tally.violations - described} more violation(s) of ${requirement.id} in the recorded traffic.`
      : '';
  const message = `${tally.violations} violation(s) of ${requirement.id} in ${tally.judged} recorded exchange(s) or call(s) judged:\n\n${tally.examples.map((violation) => describeViolation(violation, lines)).join('\n\n')}${more}`;
  const notes = tally.examples.map((violation) => ({ requirement: requirement.id, text: `${violation.title} (${violation.source})` }));
  // The first example's trace id stands beside the failure, as a run's attempt's does.
  const first = tally.examples.find((violation) => violation.exchange && traceIdOf(violation.exchange.request.headers));
  const traceId = first?.exchange && traceIdOf(first.exchange.request.headers);
  if (level === 'MUST')
    return {
      ...base,
      status: 'failed',
      violations: notes,
      errors: [message],
      attempts: [{ status: 'failed', violated: [requirement.id], errors: [message], ...(traceId !== undefined && { traceId }) }],
    };
  // Not a MUST: the record passes, its violations shown as warnings (SHOULD) or observations.
  const shownAs = level === 'SHOULD' ? { warnings: notes } : { observations: notes };
  return {
    ...base,
    status: 'passed',
    violations: [],
    ...shownAs,
    errors: [],
    attempts: [{ status: 'passed', violated: [], errors: [] }],
  };
}

/** Every string of a value with `clean` applied (keys, tokens and cookies the traffic carried). */
function cleaned<T>(value: T, clean: (text: string) => string): T {
  if (typeof value === 'string') return clean(value) as T;
  if (Array.isArray(value)) return (value as unknown[]).map((item) => cleaned(item, clean)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cleaned(item, clean)])) as T;
  return value;
}

function metadataFor(
  options: PassiveReportOptions,
  profile: PassiveResult['profile'],
  stage?: { stage: 'interim' | 'final'; asOf: string },
): RunMetadata {
  // The settings the passive run judged under (MAX_ANSWER_AGE, COVERAGE_MIN among them), as it read them.
  const metadata = runMetadata(options.config);
  const expectations = options.expectations && {
    file: options.expectations.file,
    entries: options.expectations.entries.map((entry) => ({ ...entry, expired: isExpired(entry, new Date()) })),
  };
  const { expectations: _ignored, ...rest } = metadata;
  return {
    ...rest,
    profile,
    seed: 0,
    runs: 0,
    allowWrites: false,
    target: `recorded traffic: ${options.sources.join(', ')}`,
    configuration: { mode: 'passive', sources: options.sources, profile, ...(stage && { report: stage.stage, asOf: stage.asOf }) },
    ...(expectations && { expectations }),
  };
}

export function buildPassiveReport(
  result: PassiveResult,
  options: PassiveReportOptions,
): { report: ConformanceReport; exitCode: 0 | 1 | 3 } {
  const catalog = options.catalog ?? loadCatalog();
  const env = options.env ?? environment();
  const stage = options.stage && { stage: options.stage, asOf: result.endedAt };
  const metadata = metadataFor(options, result.profile, stage);
  const location = options.sources.join(', ');
  const configured = redactorFor(env);
  const redacted = (text: string) => configured(result.redact(text));
  // In the reports' text, the traffic's controls are shown as escapes before the redactor, which
  // strips a terminal's sequences (ESC [31m) and would leave a recorded value cut where a reader
  // should see what it held. Command lines are built from the values themselves: their quoting
  // carries every character exactly (shell-quote.ts).
  const clean = (text: string) => configured(visible(result.redact(text)));
  const lines = new CommandLines(redacted);
  const report = buildReport(catalog, {
    metadata,
    tests: recordsOf(result, catalog, location, lines),
    startedAt: new Date(result.startedAt),
    durationMs: Date.parse(result.endedAt) - Date.parse(result.startedAt),
    runnerStatus: 'passed',
    runnerErrors: [],
  });
  const violated = report.requirements.filter((requirement) => FAILING.has(requirement.status)).map((requirement) => requirement.id);
  const judged = report.requirements.filter(
    (requirement) => requirement.status === 'pass' || requirement.status === 'warn' || requirement.status === 'expected-fail',
  ).length;
  const notJudged = report.requirements.filter((requirement) => requirement.status === 'skip').length;
  const left = Object.values(result.ignored).reduce((sum, count) => sum + count, 0);
  const read = `${result.exchanges} exchange(s) of the three operations judged, of ${result.entries} entries (${left} left alone)`;
  let exitCode: 0 | 1 | 3;
  if (violated.length > 0) {
    report.verdict = 'VIOLATIONS FOUND';
    report.verdictReason = `${violated.length} requirement(s) violated by the recorded traffic: ${violated.join(', ')}. ${read}; ${notJudged} requirement(s) the traffic could not show were not judged.`;
    exitCode = 1;
  } else {
    report.verdict = `NO VIOLATIONS IN ${result.exchanges} EXCHANGES`;
    exitCode = result.exchanges === 0 ? 3 : 0;
    const waitingForReadings = result.ignored[WAITING_FOR_READINGS] ?? 0;
    report.verdictReason =
      result.exchanges === 0 && waitingForReadings > 0
        ? `Nothing judged yet: ${waitingForReadings} exchange(s) wait until the readings the specification leaves open are learned from the first calls (200 calls or 100 exchanges).`
        : result.exchanges === 0
          ? `Nothing was judged: the traffic held no exchange of the three operations (${result.entries} entries, ${left} left alone: ${
              Object.entries(result.ignored)
                .map(([why, count]) => `${count} ${why}`)
                .join(', ') || 'none'
            }).`
          : `No requirement the traffic could show was violated: ${read}; ${judged} requirement(s) judged, ${notJudged} not judged (traffic cannot show them). Recorded traffic never proves conformance: run the suite for a verdict.`;
  }
  report.verdictReason = `${stageSentence(options.stage, result)}${report.verdictReason}${(options.notes ?? []).map((note) => ` ${note}`).join('')}`;
  report.exitCode = exitCode;
  const rerun = lines.hold(options.rerun);
  report.failures = report.failures.map((failure) => ({ ...failure, rerun }));
  report.passive = {
    sources: options.sources,
    entries: result.entries,
    exchanges: result.exchanges,
    byOperation: result.byOperation,
    ignored: result.ignored,
    bodiesAbsent: result.bodiesAbsent,
    walks: result.walks,
    redacted: result.redacted,
    notJudged: report.requirements
      .filter((requirement) => requirement.status === 'skip')
      .map((requirement) => ({ id: requirement.id, reason: requirement.reason ?? '' })),
    violatedIn: [...result.requirements]
      .filter(([, tally]) => tally.violations > 0)
      .map(([id, tally]) => ({ id, violations: tally.violations, entries: [...new Set(tally.examples.map((example) => example.source))] })),
  };
  // What the traffic tried of the interface: what it did not is "not in the traffic judged", not a fault of a run.
  report.coverage = coverageOf(result.coverage, { passive: true });
  return { report: cleaned(report, (text) => lines.restore(clean(text))), exitCode };
}

/** How a proxy's report says which it is: the traffic so far while it runs, all of it once it stopped. */
function stageSentence(stage: PassiveReportOptions['stage'], result: PassiveResult): string {
  if (stage === 'interim')
    return `Interim report: the traffic so far, from ${result.startedAt} to ${result.endedAt}; a final report follows when the proxy stops. `;
  if (stage === 'final') return `Final report: the traffic from ${result.startedAt} to ${result.endedAt}. `;
  return '';
}

/** The job summary: the verdict, what was read, and each violated requirement (Markdown). */
export function renderPassiveSummary(report: ConformanceReport): string {
  const passive = report.passive!;
  const violated = report.requirements.filter((requirement) => FAILING.has(requirement.status));
  return [
    `## Passive conformance: ${report.verdict}`,
    '',
    report.verdictReason,
    '',
    `Read: ${passive.sources.join(', ')}. Redacted: ${passive.redacted.join(', ') || 'none'}.`,
    '',
    ...(violated.length > 0
      ? [
          '| Requirement | Level | Found in |',
          '| --- | --- | --- |',
          ...violated.map((requirement) => `| ${cell(requirement.id)} | ${requirement.level} | ${foundIn(passive, requirement.id)} |`),
          '',
        ]
      : []),
    ...(passive.walks ? [walksLine(passive.walks), ''] : []),
    `${passive.notJudged.length} requirement(s) not judged: traffic cannot show them (see the HTML report).`,
    '',
    ...(report.coverage
      ? [`### Coverage: what the traffic tried (${report.coverage.exchanges} exchanges)`, '', ...coverageTable(report.coverage), '']
      : []),
    ...historyMarkdown(report.history),
  ].join('\n');
}

/** Where a requirement was found violated, as the summary's table cell says it: the count and the entries of the examples kept. */
function foundIn(passive: NonNullable<ConformanceReport['passive']>, id: string): string {
  const found = passive.violatedIn?.find((entry) => entry.id === id);
  if (!found) return '';
  const shown = found.entries.slice(0, 3);
  const more = found.violations > shown.length ? ` (${found.violations} violation(s) in all; the HTML report has up to ten)` : '';
  return cell(`${shown.join('; ')}${more}`);
}

/** Writes index.html, results.json, junit.xml, results.sarif and summary.md into options.dir (and the job summary when $GITHUB_STEP_SUMMARY names one). */
export function writePassiveReports(result: PassiveResult, options: PassiveReportOptions): WrittenPassiveReport {
  const { report, exitCode } = buildPassiveReport(result, options);
  if (options.history && options.stage !== 'interim')
    report.history = recordRun(report, options.history, (text) => visible(redactorFor(options.env ?? environment())(text)));
  const summary = renderPassiveSummary(report);
  const replaced = takeOverReportFolder(options.dir, 'passive');
  writeWhole(options.dir, [
    [REPORT_FILES.json, `${JSON.stringify(report, null, 2)}\n`],
    [REPORT_FILES.junit, renderJunit(report)],
    [REPORT_FILES.html, renderHtml(report)],
    [REPORT_FILES.sarif, sarifOf(report, options)],
    [SUMMARY_FILE, summary],
    // The state's texts were scrubbed of the traffic's secrets by its judge; the configured keys go too.
    ...(options.state
      ? [[STATE_FILE, JSON.stringify(cleaned(options.state, redactorFor(options.env ?? environment())))] as [string, string]]
      : []),
  ]);
  // The job summary is the run's last word: an interim report does not add one every few minutes.
  const stepSummary = (options.env ?? environment()).GITHUB_STEP_SUMMARY;
  if (stepSummary && options.stage !== 'interim') appendFileSync(stepSummary, visible(summary));
  const console = visible(
    `${replaced === undefined ? '' : `${replaced}\n`}Passive verdict: ${report.verdict}. ${report.verdictReason}\nRedacted from the reports: ${result.redacted.join(', ') || 'no credential header was present'}.\nReport: ${join(options.dir, REPORT_FILES.html)}\n`,
  );
  return { report, exitCode, console };
}

function sarifOf(report: ConformanceReport, options: PassiveReportOptions): string {
  const context = {
    catalog: options.catalog ?? loadCatalog(),
    settings: options.config.sarif,
    redact: redactorFor(options.env ?? environment()),
    writer: 'passive',
    cwd: process.cwd(),
  } as const;
  return renderSarif(report, context);
}

/**
 * Writes each file whole or not at all, as a reader sees it: to a file of its own in the same folder
 * (so the rename stays on one file system), then renamed over the old one, which POSIX makes atomic.
 * A reader of a report the proxy rewrites every few minutes never sees half of one. All are written
 * before any is renamed, so that the files change together, within a few milliseconds of one another.
 */
function writeWhole(dir: string, files: ReadonlyArray<[string, string]>): void {
  mkdirSync(dir, { recursive: true });
  const written: Array<[string, string]> = [];
  try {
    for (const [name, text] of files) {
      const temporary = join(dir, `.${name}.${process.pid}.${randomUUID()}.tmp`);
      written.push([temporary, join(dir, name)]);
      // What the traffic held that a reader cannot see and a terminal obeys: shown as escapes.
      writeFileSync(temporary, visible(text));
    }
    for (const [temporary, final] of written) renameSync(temporary, final);
  } catch (error) {
    for (const [temporary] of written) rmSync(temporary, { force: true });
    throw error;
  }
}
