// A diff run's reports (docs/diff.md): the `diff` object of results.json, the console's summary, the
// HTML page (operation → field path → class → counts against noise → sample pairs side by side, each
// with both reproduce lines) and JUnit cases. Every value a side sent is shown escaped (shown(),
// htmlEscape, xmlEscape), and the writer passes every text through the one redactor (redact.ts).
import type { DiffFinding, DiffOutcome } from '../core/diff/diff-outcome.ts';
import { curlFor, type Exchange } from '../core/transport/exchange.ts';
import { shown } from '../core/checks/violation.ts';
import { htmlEscape } from './html-escape.ts';
import { xmlEscape } from './render-junit.ts';
import { visibleLine } from '../core/results/visible.ts';

/** The candidate's requests carry its keys: its curl lines name them by its own variables. */
const CANDIDATE_PLACEHOLDERS: ReadonlyArray<[string, string]> = [
  ['$RESTRICTED_API_KEY', '$CANDIDATE_RESTRICTED_API_KEY'],
  ['$API_KEY', '$CANDIDATE_API_KEY'],
];

function candidateRequest(exchange: Exchange): Exchange {
  const headers = Object.fromEntries(
    Object.entries(exchange.request.headers).map(([name, value]) => {
      const placeholder = CANDIDATE_PLACEHOLDERS.find(([own]) => value.startsWith(own));
      return [name, placeholder ? placeholder[1] + value.slice(placeholder[0].length) : value];
    }),
  );
  return { ...exchange, request: { ...exchange.request, headers } };
}

interface SideShown {
  status: number;
  curl: string;
  /** The value at the path, as shown. */
  value: string;
  excerpt: string;
}

interface SampleShown {
  request: string;
  primary: SideShown;
  candidate: SideShown;
}

function sampleShown({ comparison, difference }: DiffFinding['samples'][number]): SampleShown {
  const side = (exchange: Exchange, value: unknown): SideShown => ({
    status: exchange.response.status,
    curl: curlFor(exchange),
    value: shown(value, 160),
    excerpt: shown(exchange.response.text, 400),
  });
  return {
    request: shown(comparison.request.label, 200),
    primary: side(comparison.primary, difference.primary),
    candidate: side(candidateRequest(comparison.candidate), difference.candidate),
  };
}

/** The `diff` object of results.json. */
export function diffResults(outcome: DiffOutcome) {
  return {
    exitCode: outcome.exitCode,
    requests: outcome.requests,
    orderedLists: outcome.orderedLists,
    readingsChanged: outcome.readingsChanged,
    // Field by field: results.json's shape is written out here, not borrowed from the tally's.
    operations: outcome.operations.map(({ operation, comparisons, aaDiffering, movement }) => ({
      operation,
      comparisons,
      aaDiffering,
      movement,
    })),
    inconclusive: outcome.inconclusive,
    notCompared: outcome.notCompared,
    ignored: outcome.ignored,
    findings: outcome.findings.map((finding) => ({
      operation: finding.operation,
      // A field's name is the target's: shown as a reader can see it, whatever it holds.
      path: visibleLine(finding.path),
      kind: finding.kind,
      verdict: finding.verdict,
      because: finding.because,
      comparisons: finding.comparisons,
      candidate: finding.candidate,
      aa: finding.aa,
      samples: finding.samples.map(sampleShown),
    })),
    withinNoise: outcome.withinNoise.map((path) => ({ ...path, path: visibleLine(path.path) })),
  };
}

export type DiffResults = ReturnType<typeof diffResults>;

const VERDICT_WORDS: Readonly<Record<DiffFinding['verdict'], string>> = {
  regression: 'REGRESSION',
  fix: 'FIX',
  'reading-changed': 'READING CHANGED',
  'behaviour-change': 'BEHAVIOUR CHANGE',
};

/** The diff's headline by its exit code: its report's first line, and the job summary's. */
export const DIFF_HEADLINES: Readonly<Record<number, string>> = { 0: 'NO DIFFERENCE BEYOND NOISE', 1: 'DIFFERENCES', 3: 'INCONCLUSIVE' };

/**
 * The diff's verdict as one word, results.json's `verdict` beside a run's CONFORMANT …: what a later
 * step of a pipeline tests (the GitHub Action's `verdict` output, action.yml).
 */
const VERDICTS = { 0: 'NO-DIFFERENCE', 1: 'DIFFERENCES', 3: 'INCONCLUSIVE' } as const;

export const diffVerdict = (exitCode: DiffOutcome['exitCode']) => VERDICTS[exitCode];

const findingLine = (finding: DiffResults['findings'][number]) =>
  `${VERDICT_WORDS[finding.verdict]}${finding.because.length > 0 ? ` (${finding.because.join(', ')})` : ''}: ${finding.operation} ${finding.path} ${finding.kind}, ${finding.candidate}/${finding.comparisons} comparisons (A/A ${finding.aa})`;

/** The console's summary, and the first lines of the HTML page. */
export function diffSummaryLines(results: DiffResults): string[] {
  return [
    `Diff: ${DIFF_HEADLINES[results.exitCode]} (${results.requests} requests, ${results.operations.map((operation) => `${operation.operation} ${operation.comparisons} comparisons`).join(', ')})`,
    ...results.findings.map(findingLine),
    ...results.inconclusive.map(({ operation, reason }) => `Inconclusive: ${operation}: ${reason}`),
    ...results.notCompared.map(({ operation, reason }) => `${operation}: ${reason}`),
    ...results.readingsChanged.map((line) => `Reading changed: ${line}`),
    ...results.ignored.map(
      ({ operation, path, suppressed }) => `DIFF_IGNORE ${operation}:${path} suppressed differences in ${suppressed} comparisons`,
    ),
  ];
}

function sideCell(title: string, side: SideShown): string {
  return `<td><b>${title}</b>: status ${side.status}<br>value <code>${htmlEscape(side.value)}</code><pre>${htmlEscape(side.excerpt)}</pre><pre>${htmlEscape(side.curl)}</pre></td>`;
}

function findingSection(finding: DiffResults['findings'][number]): string {
  const samples = finding.samples
    .map(
      (sample) =>
        `<tr><td colspan="2">${htmlEscape(sample.request)}</td></tr><tr>${sideCell('primary', sample.primary)}${sideCell('candidate', sample.candidate)}</tr>`,
    )
    .join('');
  return `<h3>${htmlEscape(`${finding.operation} → ${finding.path} → ${finding.kind}`)}</h3><p>${htmlEscape(findingLine(finding))}</p><table>${samples}</table>`;
}

export function renderDiffHtml(results: DiffResults): string {
  const [headline, ...rest] = diffSummaryLines(results);
  const noise = results.withinNoise
    .map((path) => `<li>${htmlEscape(`${path.operation} ${path.path} ${path.kind}: candidate ${path.candidate}, A/A ${path.aa}`)}</li>`)
    .join('');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Diff report</title>',
    '<style>body{font-family:sans-serif;margin:2em}pre{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;padding:.5em}td{vertical-align:top;width:50%}</style></head><body>',
    `<h1>${htmlEscape(headline ?? '')}</h1><ul>${rest.map((line) => `<li>${htmlEscape(line)}</li>`).join('')}</ul>`,
    '<h2>Differences beyond noise</h2>',
    results.findings.map(findingSection).join('') || '<p>None.</p>',
    `<h2>Within noise</h2><ul>${noise || '<li>None.</li>'}</ul>`,
    '</body></html>',
  ].join('\n');
}

/** One case per field path beyond noise (a failure, but for a fix), and one per operation compared. */
export function renderDiffJunit(results: DiffResults): string {
  const operationCases = results.operations.map((operation) => {
    const inconclusive = results.inconclusive.find((entry) => entry.operation === operation.operation);
    return `<testcase classname="diff.${xmlEscape(operation.operation)}" name="${xmlEscape(`${operation.operation}: ${operation.comparisons} comparisons`)}">${inconclusive ? `<error message="${xmlEscape(inconclusive.reason)}"/>` : ''}</testcase>`;
  });
  const findingCases = results.findings.map((finding) => {
    const name = xmlEscape(`${finding.operation} ${finding.path} ${finding.kind}`);
    const failure = finding.verdict === 'fix' ? '' : `<failure message="${xmlEscape(findingLine(finding))}"/>`;
    return `<testcase classname="diff.${xmlEscape(finding.operation)}" name="${name}">${failure}</testcase>`;
  });
  // Not asked (mark-unread in a read-only diff): skipped, as a test not configured is.
  const skipped = results.notCompared.map(
    ({ operation, reason }) =>
      `<testcase classname="diff.${xmlEscape(operation)}" name="${xmlEscape(`${operation}: not compared`)}"><skipped message="${xmlEscape(reason)}"/></testcase>`,
  );
  const cases = [...operationCases, ...findingCases, ...skipped];
  const failures = results.findings.filter((finding) => finding.verdict !== 'fix').length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="diff" tests="${cases.length}" failures="${failures}" errors="${results.inconclusive.length}" skipped="${skipped.length}">\n${cases.join('\n')}\n</testsuite></testsuites>\n`;
}
