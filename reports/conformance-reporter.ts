// The conformance reporter: collects each test's requirements, outcome, annotations and requests as
// it ends, and when the run ends writes index.html, results.json, junit.xml and results.sarif (into REPORT_DIR,
// conformance-report/ by default) from the pure summary in build-report.ts, and prints what the
// console says of it (console-summary.ts: one line per failed requirement, the verdict). It reads only what
// Playwright's blob reports keep, so `npx playwright merge-reports` with this reporter gives the
// same report as one unsharded run. Playwright's own exit code follows the verdict: a run whose
// tests all passed is still failed when a requirement did (one test credits another's violation
// and passes), and a run failed only by known failures is not, so `npx playwright test` gates the
// same way `npm run conformance` does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { environment, reportDirectory } from '../core/run/config.ts';
import { configOfThisProcess } from '../core/run/config-of-this-process.ts';
import { reporterSettingsOfThisProcess, type ReporterSettings } from './reporter-settings.ts';
import { REQUESTS_ATTACHMENT, type RequestsAttachment } from '../core/results/request-log.ts';
import { READING_ANNOTATION, type DetectionSummary } from '../core/learning/detection.ts';
import { CREDITED_ATTACHMENT, type CreditedViolation } from '../core/run/verdict.ts';
import { BLOCKED_ANNOTATION } from '../core/results/blocked.ts';
import { heldRequirements, notesOf, type NoteKind } from '../core/results/annotations.ts';
import { loadCatalog } from '../openapi/catalog.ts';
import { operationNames, type OperationName } from '../openapi/contract.ts';
import { consoleSummary } from './console-summary.ts';
import { buildReport } from './build-report.ts';
import { redactorFor, type Redactor } from './redact.ts';
import { visible } from '../core/results/visible.ts';
import { renderHtml } from './render-html.ts';
import { renderJunit } from './render-junit.ts';
import { renderSarif } from './render-sarif.ts';
import type { Comparison, ConformanceReport, Note, RunMetadata, TestRecord } from '../core/results/report-model.ts';
import { compareRuns, describeComparison } from './compare.ts';
import { readResultsFile } from '../core/results/results-file.ts';
import { METADATA_KEY, runMetadata } from './run-metadata.ts';
import { agesNoted, largestAges } from './answer-ages.ts';
import { removeEmptyFolders, takeOverReportFolder } from './report-folder.ts';
import { recordRun } from '../core/history/record-run.ts';

/** A failure message longer than this is cut: the report stays readable, and Playwright's own report keeps the whole. */
const MESSAGE_LIMIT = 20_000;

export const REPORT_FILES = { html: 'index.html', json: 'results.json', junit: 'junit.xml', sarif: 'results.sarif' } as const;

export interface ConformanceReporterOptions {
  /** Overrides REPORT_DIR. */
  outputFolder?: string;
  /** What it needs of the run's configuration (reporter-settings.ts); this process's own when not given. */
  settings?: ReporterSettings;
}

export default class ConformanceReporter implements Reporter {
  private readonly records = new Map<string, TestRecord>();
  private readonly runnerErrors: string[] = [];
  private readonly redact: Redactor;
  private readonly outputFolder: string;
  /** The interface's operations: the ids an `answer-age` annotation may name, and those a run may leave unexercised. */
  private readonly operations: OperationName[] = operationNames();
  private metadata: RunMetadata | undefined;
  /** Playwright's artefacts folders (REPORT_DIR/test-results/ unless --output says otherwise), emptied of empty folders at the end. */
  private artefactFolders: string[] = [];
  private settingsGiven: ReporterSettings | undefined;
  /** A shard's report is a part of the run: the merge of the shards adds the run to the history. */
  private shard = false;

  constructor(options: ConformanceReporterOptions = {}) {
    const env = environment();
    this.redact = redactorFor(env);
    this.outputFolder = resolve(options.outputFolder ?? reportDirectory(env));
    this.settingsGiven = options.settings;
  }

  /** Asked for as the run ends, and of this process only once, when playwright.config.ts gave none. */
  private settings(): ReporterSettings {
    this.settingsGiven ??= reporterSettingsOfThisProcess();
    return this.settingsGiven;
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, _suite: Suite): void {
    this.metadata = config.metadata[METADATA_KEY] as RunMetadata | undefined;
    this.artefactFolders = [...new Set(config.projects.map((project) => project.outputDir))];
    this.shard = Boolean(config.shard);
  }

  /**
   * With retries, every attempt is kept: the last result stands for the test, and the earlier ones
   * tell a deterministic failure from an intermittent one. Every attempt's requests were sent, and
   * what any attempt credited to another requirement was seen.
   */
  onTestEnd(test: TestCase, result: TestResult): void {
    const record = this.recordOf(test, result);
    const earlier = this.records.get(test.id);
    if (!earlier || result.retry === 0) return void this.records.set(test.id, record);
    const credited = [
      ...earlier.credited,
      ...record.credited.filter((entry) => !earlier.credited.some((seen) => seen.requirement === entry.requirement)),
    ];
    this.records.set(test.id, {
      ...record,
      attempts: [...earlier.attempts, ...record.attempts],
      requests: [...earlier.requests, ...record.requests],
      credited,
      // An age an earlier attempt saw was seen all the same.
      answerAges: largestAges([earlier.answerAges, record.answerAges]),
    });
  }

  onError(error: TestError): void {
    this.runnerErrors.push(this.redact(error.message ?? error.value ?? 'An unknown error.'));
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    // `--list` ends a run where no test ran and nothing failed: there is nothing to report, and the
    // last real report must not be overwritten by an empty one.
    if (this.records.size === 0 && this.runnerErrors.length === 0 && result.status === 'passed') return undefined;
    const metadata = this.metadata ?? this.metadataFromEnvironment();
    if (!metadata) return undefined;
    const report = buildReport(loadCatalog(), {
      metadata,
      tests: [...this.records.values()],
      startedAt: result.startTime,
      durationMs: result.duration,
      runnerStatus: result.status,
      runnerErrors: this.runnerErrors,
      operations: this.operations,
      launcher: this.settings().launcher,
    });
    const comparison = this.comparedWithBaseline(report);
    if (comparison) report.comparison = comparison;
    const { history } = this.settings();
    if (history && !this.shard) report.history = recordRun(report, history, (text) => visible(this.redact(text)));
    for (const folder of this.artefactFolders) removeEmptyFolders(folder);
    const replaced = takeOverReportFolder(this.outputFolder, 'run');
    mkdirSync(this.outputFolder, { recursive: true });
    // What a target sent may hold characters a reader cannot see and a terminal obeys: shown as escapes.
    writeFileSync(join(this.outputFolder, REPORT_FILES.json), visible(`${JSON.stringify(report, null, 2)}\n`));
    writeFileSync(join(this.outputFolder, REPORT_FILES.junit), visible(renderJunit(report)));
    writeFileSync(join(this.outputFolder, REPORT_FILES.html), visible(renderHtml(report)));
    const sarif = {
      catalog: loadCatalog(),
      settings: this.settings().sarif,
      redact: this.redact,
      writer: 'run',
      cwd: process.cwd(),
    } as const;
    writeFileSync(join(this.outputFolder, REPORT_FILES.sarif), visible(renderSarif(report, sarif)));
    const where = relative(process.cwd(), join(this.outputFolder, REPORT_FILES.html)) || REPORT_FILES.html;
    if (replaced !== undefined) process.stdout.write(`${replaced}\n`);
    process.stdout.write(
      visible(
        consoleSummary(report, {
          mode: this.settings().console,
          reportPath: where,
          ...(comparison && { comparison: describeComparison(comparison) }),
        }),
      ),
    );
    // Playwright's status follows the verdict both ways: a requirement failed by credit fails the run,
    // and an expected failure, or a known failure that passed, does not.
    if (report.verdict !== 'CONFORMANT' && result.status === 'passed') return { status: 'failed' };
    if (report.verdict === 'CONFORMANT' && result.status === 'failed') return { status: 'passed' };
    return undefined;
  }

  /** The run beside BASELINE's results.json, when one is named (the configuration has checked it is one). */
  private comparedWithBaseline(report: ConformanceReport): Comparison | undefined {
    const { baseline } = this.settings();
    if (baseline === undefined) return undefined;
    return compareRuns(readResultsFile(baseline), report, { base: baseline, next: join(this.outputFolder, REPORT_FILES.json) });
  }

  /** A run whose configuration did not come through playwright.config.ts (it always should). */
  private metadataFromEnvironment(): RunMetadata | undefined {
    try {
      const metadata = runMetadata(configOfThisProcess());
      this.runnerErrors.push(
        'The run carried no conformance metadata; the configuration was read again from the environment of the reporter.',
      );
      return metadata;
    } catch (error) {
      process.stderr.write(
        `Conformance report not written: the run carried no conformance metadata and the environment has no valid configuration (${error instanceof Error ? error.message : String(error)}).\n`,
      );
      return undefined;
    }
  }

  private recordOf(test: TestCase, result: TestResult): TestRecord {
    const annotations = [...test.annotations, ...result.annotations];
    // A note names a catalogued requirement; loadCatalog reads the catalog once per process.
    const notes = (kind: NoteKind): Note[] =>
      notesOf(annotations, kind, loadCatalog().byId.keys()).map((note) => ({ ...note, text: this.redact(note.text) }));
    const requests = requestsOf(result);
    // Written by the suite's own fixture; held to its form all the same, since reports quote it unescaped in places.
    const traceId = typeof requests?.traceId === 'string' && /^[0-9a-f]{32}$/.test(requests.traceId) ? requests.traceId : undefined;
    const skip = annotations.find((annotation) => annotation.type === 'skip' && annotation.description);
    const violations = notes('violation');
    const blocked = notes(BLOCKED_ANNOTATION)[0];
    const errors = result.errors.map((error) => cut(this.redact(error.message ?? error.value ?? 'An unknown error.')));
    return {
      title: test.title,
      location: `${relative(process.cwd(), test.location.file)}:${test.location.line}`,
      requirements: [...new Set(heldRequirements(annotations))],
      status: result.status,
      ...(skip?.description !== undefined && { skipReason: this.redact(skip.description) }),
      ...(blocked && { blocked }),
      violations,
      warnings: notes('warning'),
      observations: notes('observation'),
      errors,
      durationMs: result.duration,
      requests: requests?.requests ?? [],
      ...(requests && { seed: requests.seed }),
      readings: annotations
        .filter((annotation) => annotation.type === READING_ANNOTATION)
        .flatMap((annotation) => parsed<DetectionSummary>(this.redact(annotation.description ?? ''))),
      answerAges: agesNoted(
        annotations,
        this.operations.map((operation) => operation.id),
      ),
      credited:
        attachmentOf<CreditedViolation[]>(result, CREDITED_ATTACHMENT)?.map((credited) => ({
          ...credited,
          message: cut(this.redact(credited.message)),
          ...(traceId !== undefined && { traceId }),
        })) ?? [],
      attempts: [
        {
          status: result.status,
          violated: [...new Set(violations.map((note) => note.requirement))],
          errors,
          ...(traceId !== undefined && { traceId }),
        },
      ],
    };
  }
}

const cut = (text: string) =>
  text.length > MESSAGE_LIMIT
    ? `${text.slice(0, MESSAGE_LIMIT)}\n… (cut at ${MESSAGE_LIMIT} of ${text.length} characters; Playwright's own report has the whole message)`
    : text;

const requestsOf = (result: TestResult) => attachmentOf<RequestsAttachment>(result, REQUESTS_ATTACHMENT);

function attachmentOf<T>(result: TestResult, name: string): T | undefined {
  const attachment = result.attachments.find((candidate) => candidate.name === name && candidate.body);
  return attachment?.body ? parsed<T>(attachment.body.toString('utf8'))[0] : undefined;
}

/** The JSON value, or nothing when the text is not JSON (a report is still written). */
function parsed<T>(text: string): T[] {
  try {
    return [JSON.parse(text) as T];
  } catch {
    return [];
  }
}
