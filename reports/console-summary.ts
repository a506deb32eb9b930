// What the console says when a run ends, from the same report the files are written from: one line
// per failed requirement (its id, how many tests met it, the first place) and one of what was wrong
// there, the requirements blocked behind a failed one, the SHOULDs not met, the answers' age when
// one was seen older than its arrival, the known failures (CONFORMANCE_EXPECTATIONS) and what became
// of them, the errors outside the tests the verdict does not quote, then the verdict. The failures in full are in the report
// (and, with CONFORMANCE_CONSOLE=verbose, on the console too): one wrong total_pages is met by
// thirty tests, and the console names it once.
import type { ConsoleMode } from '../core/run/config.ts';
import type { ConformanceReport, FailureRecord, RequirementResult } from '../core/results/report-model.ts';
import { describeAges } from '../core/checks/answer-age.ts';
import { firstLineOf } from './console-reporter.ts';
import { historyConsoleLines } from './history-text.ts';

/** The longest line of what went wrong that the console shows; the report has the whole. */
const DETAIL_LIMIT = 200;

const SHOWN: ReadonlyArray<RequirementResult['status']> = ['fail', 'intermittent', 'error'];

export interface SummaryOptions {
  mode: ConsoleMode;
  /** Where index.html was written, as the user should open it. */
  reportPath: string;
  /** describeComparison's text, when the run was compared with a baseline. */
  comparison?: string;
}

export function consoleSummary(report: ConformanceReport, options: SummaryOptions): string {
  const failed = report.requirements.filter((result) => SHOWN.includes(result.status));
  const sections = [
    failed.length === 0
      ? []
      : [
          `Failed requirements (${failed.length}); each of the report's ${report.failures.length} test failure(s) is there in full${options.mode === 'verbose' ? ' and above' : ' (or on the console with CONFORMANCE_CONSOLE=verbose)'}:`,
          ...failed.flatMap((result) => failedRequirementLines(result, report.failures)),
        ],
    options.mode === 'verbose' ? creditedLines(report) : [],
    blockedLines(report),
    notMetLines(report),
    knownFailureLines(report),
    laterRunnerErrorLines(report),
    answerAgeLines(report),
    historyConsoleLines(report.history),
    options.comparison ? ['', 'Compared with the baseline:', options.comparison] : [],
  ];
  return [
    '',
    ...sections.flat(),
    `Conformance verdict: ${report.verdict}. ${report.verdictReason}`,
    `Report: ${options.reportPath}`,
    '',
  ].join('\n');
}

/**
 * Two lines: "  ✘ ID (MUST, fail): met by N tests; first: location "title"" and, indented, what the
 * first of them saw. The first is the test that holds the requirement when one failed, else the
 * first by place.
 */
function failedRequirementLines(result: RequirementResult, failures: readonly FailureRecord[]): string[] {
  const met = failures.filter((failure) => failure.requirements.includes(result.id));
  const places = new Set(met.map((failure) => `${failure.location} ${failure.test}`));
  const first = met.find((failure) => !failure.credited) ?? met[0];
  const status =
    result.status === 'intermittent' && result.attempts
      ? `intermittent, ${result.attempts.violated} of ${result.attempts.judged} attempts`
      : result.status;
  const where = first
    ? `; first: ${first.location} "${first.test}"${first.traceId === undefined ? '' : ` (trace id ${first.traceId})`}`
    : result.tests[0]
      ? `; first: ${result.tests[0].location} "${result.tests[0].title}"`
      : '';
  const count = places.size > 0 ? `met by ${places.size} test(s)` : `${result.tests.length} test(s)`;
  const detail = first ? whatWasSeen(first.message, result.id) : result.reason;
  return [`  ✘ ${result.id} (${result.level}, ${status}): ${count}${where}`, ...(detail ? [`      ${cut(detail)}`] : [])];
}

/**
 * The first violation of the requirement in a failure's message, on one line: its headline and
 * its Expected/Received, or the message's first line when it is not a violation (an error).
 */
export function whatWasSeen(message: string, id: string): string {
  // Playwright's message of a failed test starts with the error's class: "ConformanceFailure: ID …".
  const lines = message
    .split('\n')
    .map((line) => line.trim().replace(/^[A-Z]\w*Error: |^ConformanceFailure: /, ''))
    .filter((line) => line !== '');
  const start = lines.findIndex((line) => line.startsWith(`${id} `));
  if (start < 0) return lines.find((line) => !line.startsWith('Found while testing')) ?? '';
  const headline = lines[start]!.slice(id.length + 1).replace(/^\[[^\]]*\]\s*/, '');
  const facts = lines.slice(start + 1, start + 3).filter((line) => /^(Expected|Received):/.test(line));
  return [headline, ...facts].join('; ');
}

const cut = (text: string) => (text.length > DETAIL_LIMIT ? `${text.slice(0, DETAIL_LIMIT - 1)}…` : text);

/** Every test that met another requirement's violation: the old console, for CONFORMANCE_CONSOLE=verbose. */
function creditedLines(report: ConformanceReport): string[] {
  const credited = [
    ...new Set(
      report.failures
        .filter((failure) => failure.credited)
        .map((failure) => `  ${failure.requirements[0]}: found while testing "${failure.test}" (${failure.location})`),
    ),
  ];
  return credited.length === 0 ? [] : ["Requirements found broken by tests that hold others (see the report's failures):", ...credited];
}

/** One line per requirement that kept others from being judged: how many, and why (the first reason). */
function blockedLines(report: ConformanceReport): string[] {
  const blocked = report.requirements.filter((result) => result.status === 'blocked');
  if (blocked.length === 0) return [];
  const blockers = [...new Set(blocked.flatMap((result) => result.blockedBy ?? []))];
  return [
    'Not judged, blocked by a requirement the target broke (skipped, not retried):',
    ...blockers.map((id) => {
      const held = blocked.filter((result) => result.blockedBy?.includes(id));
      const named = held
        .slice(0, 4)
        .map((result) => result.id)
        .join(', ');
      return `  ${held.length} requirement(s) (${named}${held.length > 4 ? ', …' : ''}). ${held[0]!.reason}`;
    }),
  ];
}

/** One line when an answer was seen older than its arrival: what a target behind a cache or a replica made the suite wait for. */
function answerAgeLines(report: ConformanceReport): string[] {
  const described = report.answerAges && describeAges(report.answerAges.largest, report.answerAges.boundSeconds);
  return described ? [`Answer age: ${described}`] : [];
}

/** The SHOULDs not met, in one line: they do not change the verdict, and the report says what was seen. */
function notMetLines(report: ConformanceReport): string[] {
  const warned = report.requirements.filter((result) => result.status === 'warn').map((result) => result.id);
  return warned.length === 0 ? [] : [`Not met at SHOULD level (${warned.length}, not counted against the verdict): ${warned.join(', ')}`];
}

/**
 * The known failures and what became of them, one line each that has any: the expected failures the
 * verdict left out, the listed requirements that passed (the file no longer says what the target
 * does) and the entries past their date (judged as not listed).
 */
function knownFailureLines(report: ConformanceReport): string[] {
  const known = report.expectations;
  if (!known) return [];
  const line = (ids: readonly string[], words: string) => (ids.length === 0 ? [] : [`  ${words} (${ids.length}): ${ids.join(', ')}`]);
  const lines = [
    ...line(known.expectedFailures, 'Failed as expected, not counted against the verdict'),
    ...line(known.unexpectedPasses, 'Passed though listed; take them off the list'),
    ...line(known.expired, 'Listed past their date, judged as not listed'),
  ];
  return [`Known failures (${known.file}):`, ...(lines.length > 0 ? lines : ['  none listed'])];
}

/** The verdict quotes the first error outside the tests; the others, first lines only, are said here. */
function laterRunnerErrorLines(report: ConformanceReport): string[] {
  return report.run.runner.errors.slice(1).map((error) => `Also outside the tests: ${cut(firstLineOf(error))}`);
}
