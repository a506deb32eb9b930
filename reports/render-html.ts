// index.html: one self-contained page (inline CSS and SVG, no script, no external resource) that
// opens offline and prints. The verdict comes first; then the requirement matrix by section of the
// specification, each outcome shown by colour and by text; the failures with Expected/Received and
// how to reproduce them; the readings the target was found to follow and judged under; what the
// target did on the "not shown" items; requests per operation; and the run's configuration with
// secrets redacted. What the run covered of the interface (render-coverage.ts) and what it learned
// of the answers' age (render-answer-ages.ts) have sections of their own, when the report has them.
import type {
  Comparison,
  ConformanceReport,
  FailureRecord,
  OperationSummary,
  ReadingResult,
  RequirementResult,
  RequirementStatus,
  UnexercisedOperation,
  Verdict,
} from '../core/results/report-model.ts';
import { FAILING, REQUIREMENT_STATUSES } from './requirement-matrix.ts';
import { htmlEscape as h } from './html-escape.ts';
import { walksLine } from './walks-line.ts';
import { COVERAGE_STYLE, coverageNavLink, renderCoverage } from './render-coverage.ts';
import { answerAgeNavLink, renderAnswerAges } from './render-answer-ages.ts';
import { HISTORY_STYLE, historyNavLink, renderHistory } from './render-history.ts';

// Where the escaping was first declared, and where the tests still take it from.
export { htmlEscape } from './html-escape.ts';

const STATUS_LABEL: Record<RequirementStatus, string> = {
  pass: '✔ PASS',
  fail: '✘ FAIL',
  intermittent: '≈ INTERMITTENT',
  'expected-fail': '⚑ EXPECTED FAIL',
  warn: '! WARN',
  error: '⚠ ERROR',
  blocked: '⊘ BLOCKED',
  skip: '– SKIP',
  uncovered: '? UNCOVERED',
  'not-testable': '○ NOT TESTABLE',
};
const VERDICT_LABEL: Record<Verdict, string> = {
  CONFORMANT: '✔ CONFORMANT',
  'NON-CONFORMANT': '✘ NON-CONFORMANT',
  INCONCLUSIVE: '⚠ INCONCLUSIVE',
  'VIOLATIONS FOUND': '✘ VIOLATIONS FOUND',
};
const verdictLabel = (verdict: Verdict) => VERDICT_LABEL[verdict] ?? `✔ ${verdict}`;

export function renderHtml(report: ConformanceReport): string {
  const { run } = report;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(`${report.verdict} · Conformance report`)}</title>
<style>${STYLE}${COVERAGE_STYLE}${report.history ? HISTORY_STYLE : ''}</style>
</head>
<body>
<header class="verdict ${verdictClass(report.verdict)}" data-verdict="${h(report.verdict)}">
  <p class="eyebrow">Conformance verdict</p>
  <h1 id="verdict">${h(verdictLabel(report.verdict))}</h1>
  <p class="reason">${h(report.verdictReason)}</p>
  <dl class="facts">
    ${fact('Specification', report.specification)}
    ${fact('Target', run.target)}
    ${fact('Profile', run.profile)}
    ${report.passive ? '' : fact('Seed', run.seeds.length > 1 ? `${run.seeds.join(', ')} (shards ran with different seeds)` : String(run.seeds[0] ?? run.seed))}
    ${fact('Suite', `${run.suite.name} ${run.suite.version}${run.suite.commit ? ` (commit ${run.suite.commit.slice(0, 12)}${run.suite.modified ? ', with local changes' : ''})` : ''}`)}
    ${report.passive ? fact('Traffic', `${run.startedAt} to ${run.endedAt} · ${report.passive.exchanges} exchanges judged of ${report.passive.entries} entries`) : fact('Run', `${run.startedAt} · ${(run.durationMs / 1000).toFixed(1)} s · ${report.summary.requests} requests`)}
  </dl>
</header>
<nav aria-label="Sections of this report"><a href="#matrix">Requirements</a>${report.comparison ? '<a href="#comparison">Compared with the baseline</a>' : ''}${report.expectations ? '<a href="#expectations">Known failures</a>' : ''}<a href="#failures">Test failures (${report.failures.length})</a>${historyNavLink(report.history)}${coverageNavLink(report.coverage)}<a href="#readings">Readings</a>${answerAgeNavLink(report.answerAges)}<a href="#not-shown">Not shown</a>${report.passive ? '' : '<a href="#requests">Requests</a>'}<a href="#configuration">Configuration</a></nav>
<main>
${renderTotals(report)}
${renderPassive(report)}
${renderGlance(report)}
${renderMatrix(report)}
${renderComparison(report)}
${renderExpectations(report)}
${renderFailures(report)}
${renderHistory(report.history)}
${report.coverage ? renderCoverage(report.coverage) : ''}
${renderReadings(report.readings)}
${renderAnswerAges(report.answerAges, report.passive !== undefined)}
${renderNotShown(report)}
${report.passive ? '' : `${renderOperations(report.operations, report.unexercised ?? [])}\n${renderWrites(report)}`}
${renderConfiguration(report)}
</main>
</body>
</html>
`;
}

/** An id for a failure: its test's location (unique within a run), and the requirement a test credited. */
const anchorOf = (failure: Pick<FailureRecord, 'location' | 'requirements' | 'credited'>) =>
  `failure-${failure.location}${failure.credited ? `-${failure.requirements[0]}` : ''}`.replace(/[^A-Za-z0-9]+/g, '-');
const verdictClass = (verdict: Verdict) =>
  `verdict-${verdict === 'VIOLATIONS FOUND' ? 'non-conformant' : verdict.startsWith('NO VIOLATIONS') ? 'conformant' : verdict.toLowerCase()}`;

/** A passive run: what traffic was read, what was left alone, which headers were redacted, what it could not judge. */
function renderPassive(report: ConformanceReport): string {
  const passive = report.passive;
  if (!passive) return '';
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([name, count]) => `${name}: ${count}`)
      .join(', ') || 'none';
  return `<section id="passive">
<h2>Recorded traffic judged</h2>
<p>Read from ${h(passive.sources.join(', '))}: ${passive.entries} entries; ${passive.exchanges} exchanges of the three operations judged (${h(counts(passive.byOperation))}); left alone: ${h(counts(passive.ignored))}${passive.bodiesAbsent > 0 ? `; ${passive.bodiesAbsent} without a recorded body, judged on their status alone` : ''}.</p>
${passive.walks ? `<p>${h(walksLine(passive.walks))}</p>` : ''}
<p>Redacted from every report: ${h(passive.redacted.join(', ') || 'no credential header was present')}.</p>
<h3>Not judged: traffic cannot show them (${passive.notJudged.length})</h3>
<ul>${passive.notJudged.map((item) => `<li><code>${h(item.id)}</code>: ${h(item.reason)}</li>`).join('')}</ul>
</section>`;
}
const fact = (term: string, value: string) => `<div><dt>${h(term)}</dt><dd>${h(value)}</dd></div>`;
const badge = (status: RequirementStatus) => `<span class="badge s-${status}">${h(STATUS_LABEL[status])}</span>`;

function renderTotals(report: ConformanceReport): string {
  const items = REQUIREMENT_STATUSES.map(
    (status) => `<li>${badge(status)} <strong>${report.summary.requirements[status]}</strong></li>`,
  ).join('');
  const runnerErrors = report.run.runner.errors.map((error) => `<pre class="error">${h(error)}</pre>`).join('');
  return `<section id="totals" aria-label="Totals"><ul class="totals">${items}</ul>${runnerErrors ? `<h2>Errors outside the tests</h2>${runnerErrors}` : ''}</section>`;
}

/** Every requirement as a small tile, section by section: the whole matrix on one screen. */
function renderGlance(report: ConformanceReport): string {
  const rows = report.sections.map((section) => {
    const tiles = report.requirements
      .filter((result) => result.section === section.id)
      .map(
        (result) =>
          `<a class="tile s-${result.status}" href="#req-${h(result.id)}" title="${h(`${result.id}: ${STATUS_LABEL[result.status].split(' ').slice(1).join(' ')}`)}">${h(STATUS_LABEL[result.status].split(' ')[0]!)}</a>`,
      );
    return `<tr><th scope="row">§${h(section.id)} ${h(section.title)}</th><td>${tiles.join('')}</td></tr>`;
  });
  return `<section id="glance"><h2>At a glance</h2><table class="glance"><tbody>${rows.join('')}</tbody></table><p class="muted">One tile per requirement; the symbol repeats the colour: ✔ pass, ✘ fail, ≈ intermittent, ⚑ expected failure, ! warn, ⚠ error, ⊘ blocked (not judged: the target broke a requirement it stands on), – skip, ? uncovered, ○ not testable.</p></section>`;
}

function renderMatrix(report: ConformanceReport): string {
  const bodies = report.sections.map((section) => {
    const rows = report.requirements
      .filter((result) => result.section === section.id)
      .map((result) => renderRequirementRow(result, report.failures))
      .join('\n');
    const counts = REQUIREMENT_STATUSES.filter((status) => section.counts[status] > 0)
      .map((status) => `${section.counts[status]} ${STATUS_LABEL[status].split(' ').slice(1).join(' ').toLowerCase()}`)
      .join(' · ');
    return `<tbody id="section-${h(section.id)}"><tr class="section-row"><th colspan="4" scope="colgroup">§${h(section.id)} ${h(section.title)} <span class="counts">${h(counts)}</span></th></tr>\n${rows}</tbody>`;
  });
  return `<section id="matrix"><h2>Requirements by section of the specification</h2>
<table class="matrix"><thead><tr><th scope="col">Outcome</th><th scope="col">Requirement</th><th scope="col">Level</th><th scope="col">What it says, and what the run found</th></tr></thead>
${bodies.join('\n')}
</table></section>`;
}

function renderRequirementRow(result: RequirementResult, failures: readonly FailureRecord[]): string {
  const details = [
    result.reason ? `<p class="why">${h(result.reason)}</p>` : '',
    ...result.readings.map(
      ({ subject, accepted }) =>
        `<p class="judged-under">Judged under the reading <a href="#reading-${h(subject)}">${h(subject)}</a>: ${h(accepted.join(' or '))}</p>`,
    ),
    result.expected && result.status !== 'expected-fail'
      ? `<p class="expected">Listed as a known failure (${h(result.expected.reason)}${result.expected.until ? `, until ${h(result.expected.until)}` : ''})${result.expected.expired ? ': the entry has expired and counts for nothing' : FAILING.has(result.status) ? '' : ': it did not fail in this run'}.</p>`
      : '',
    ...result.warnings.map((warning) => `<p class="warning">Warning: ${h(warning)}</p>`),
    ...(FAILING.has(result.status) || result.status === 'expected-fail'
      ? failures.filter((failure) => failure.requirements.includes(result.id))
      : []
    ).map(
      (failure) =>
        `<p class="see-failure"><a href="#${anchorOf(failure)}">See the failure ${failure.credited ? 'found while testing' : 'of'} ${h(failure.test)}</a></p>`,
    ),
    result.tests.length > 0
      ? `<p class="tests">${result.tests.map((test) => `<span class="t-${test.status}">${h(test.location)} (${h(test.status)})</span>`).join(' ')}</p>`
      : '',
  ].join('');
  const level = result.level === result.specLevel ? result.level : `${result.level} (spec: ${result.specLevel})`;
  return `<tr id="req-${h(result.id)}" data-requirement="${h(result.id)}" data-status="${result.status}" class="r-${result.status}"><td>${badge(result.status)}</td><th scope="row"><code>${h(result.id)}</code></th><td>${h(level)}</td><td>${h(result.text)}${details}</td></tr>`;
}

function renderFailures(report: ConformanceReport): string {
  if (report.failures.length === 0) return `<section id="failures"><h2>Test failures</h2><p>No test failed.</p></section>`;
  const items = report.failures.map(
    (failure) => `<article class="failure${failure.credited ? ' credited' : ''}" id="${anchorOf(failure)}">
<h3>${failure.credited ? `${h(failure.requirements[0] ?? '')}, found while testing: ` : ''}${h(failure.test)}</h3>
<p class="where">${h(failure.location)} · ${failure.credited ? `the test ${h(failure.status)}; it holds other requirements and credited this one` : h(failure.status)}${failure.attempts ? ` · failed in ${failure.attempts.failed} of ${failure.attempts.total} attempts` : ''}${failure.requirements.length > 0 ? ` · violates ${failure.requirements.map((id) => `<code>${h(id)}</code>`).join(', ')}` : ''}${failure.traceId === undefined ? '' : ` · trace id <code class="trace-id">${h(failure.traceId)}</code>`}</p>
<pre>${h(failure.message)}</pre>
<p>${report.passive ? 'Judge the same traffic again:' : 'Re-run this test with the same seed:'}</p><pre class="command">${h(failure.rerun)}</pre>
</article>`,
  );
  // Counted in tests, not requirements: one broken requirement is often met by many tests.
  const over = new Set(report.failures.flatMap((failure) => failure.requirements)).size;
  return `<section id="failures"><h2>Test failures (${report.failures.length})</h2>\n<p>Each test that failed, and each test that found a requirement it does not hold broken: ${report.failures.length} over ${over} requirement(s). The verdict and the matrix count requirements.</p>\n${items.join('\n')}</section>`;
}

/** Known failures: the file, what failed as expected, what passed against expectation, what expired. */
function renderExpectations(report: ConformanceReport): string {
  const { expectations } = report;
  if (!expectations) return '';
  const list = (ids: readonly string[], none: string) =>
    ids.length === 0
      ? `<p class="muted">${none}</p>`
      : `<ul>${ids.map((id) => `<li><a href="#req-${h(id)}"><code>${h(id)}</code></a>${reasonOf(report, id)}</li>`).join('')}</ul>`;
  return `<section id="expectations"><h2>Known failures (${h(expectations.file)})</h2>
<h3>Expected failures (${expectations.expectedFailures.length}): listed, and failed; not counted against the verdict</h3>${list(expectations.expectedFailures, 'None.')}
<h3>Unexpected passes (${expectations.unexpectedPasses.length}): listed, and passed; the file no longer says what the target does</h3>${list(expectations.unexpectedPasses, 'None.')}
<h3>Expired (${expectations.expired.length}): listed past their date, judged as if not listed</h3>${list(expectations.expired, 'None.')}
</section>`;
}

const reasonOf = (report: ConformanceReport, id: string) => {
  const expected = report.requirements.find((result) => result.id === id)?.expected;
  return expected ? `: ${h(expected.reason)}${expected.until ? ` (until ${h(expected.until)})` : ''}` : '';
};

/** The run beside its baseline (BASELINE): what newly fails, what was fixed, what else changed. */
function renderComparison(report: ConformanceReport): string {
  const comparison = report.comparison;
  if (!comparison) return '';
  const changes = (title: string, list: Comparison['changed'], id: string) =>
    `<h3 id="${id}">${h(title)} (${list.length})</h3>${
      list.length === 0
        ? '<p class="muted">None.</p>'
        : `<ul>${list.map((change) => `<li><a href="#req-${h(change.id)}"><code>${h(change.id)}</code></a> ${h(change.level)}: ${h(change.base)} → ${h(change.next)}</li>`).join('')}</ul>`
    }`;
  const differences = [
    ...comparison.readings.map(
      (reading) =>
        `<li>Reading <code>${h(reading.subject)}</code>: ${h(reading.base.join(' or ') || 'not learned')} → ${h(reading.next.join(' or ') || 'not learned')}</li>`,
    ),
    ...comparison.notShown.map(
      (item) =>
        `<li><code>${h(item.id)}</code>: ${h(item.base.join('; ') || 'nothing observed')} → ${h(item.next.join('; ') || 'nothing observed')}</li>`,
    ),
  ];
  return `<section id="comparison"><h2>Compared with the baseline</h2>
<p>Baseline: ${h(comparison.base.file)} (${h(comparison.base.verdict)}, ${h(comparison.base.target)}, ${h(comparison.base.startedAt)}).</p>
${changes('Newly failing', comparison.newlyFailing, 'newly-failing')}${changes('Fixed', comparison.fixed, 'fixed')}${changes('Changed otherwise', comparison.changed, 'changed')}
<h3>Answered differently: readings and items the specification does not show (${differences.length})</h3>${differences.length === 0 ? '<p class="muted">None.</p>' : `<ul>${differences.join('')}</ul>`}
${comparison.coverageLost ? coverageLost(comparison.coverageLost) : ''}
</section>`;
}

/** What the run covered in the baseline and not now: the run's doing, not the target's, so apart from the outcomes. */
function coverageLost(lost: NonNullable<Comparison['coverageLost']>): string {
  const items = lost.map((item) => `<li><code>${h(item.id)}</code> ${h(item.label)}: ${h(item.base)} → ${h(item.next)}</li>`);
  return `<h3 id="coverage-lost">Coverage lost: covered in the baseline, not in this run (${lost.length})</h3>${items.length === 0 ? '<p class="muted">None.</p>' : `<ul>${items.join('')}</ul>`}`;
}

const CANDIDATE_LABEL = { accepted: '✔ ACCEPTED', consistent: '○ CONSISTENT', 'ruled-out': '✘ RULED OUT' } as const;

/** What the suite learned of the target, one block per subject, each candidate with what the run found of it. */
function renderReadings(readings: readonly ReadingResult[]): string {
  if (readings.length === 0)
    return `<section id="readings"><h2>Readings</h2><p>Nothing was learned of the target in this run (no test that rests on a reading ran).</p></section>`;
  const blocks = readings.map(
    (reading) => `<div class="reading" id="reading-${h(reading.subject)}" data-subject="${h(reading.subject)}">
<h3><code>${h(reading.subject)}</code> ${h(reading.question)}</h3>
${
  reading.noneSurvived
    ? `<p class="warning">No candidate fits everything the target answered: it fits none, or follows different ones on different calls. The checks judge by ${h(
        reading.candidates
          .filter((candidate) => candidate.status === 'accepted')
          .map((candidate) => candidate.id)
          .join(' or '),
      )}, and what does not fit fails its requirement.</p>`
    : ''
}
<table class="candidates"><tbody>${reading.candidates.map((candidate) => `<tr data-candidate="${h(candidate.id)}" data-status="${candidate.status}"><td><span class="badge c-${candidate.status}">${h(CANDIDATE_LABEL[candidate.status])}</span></td><th scope="row"><code>${h(candidate.id)}</code></th><td>${h(candidate.text)}${candidate.reason ? `<p class="why">Ruled out: ${h(candidate.reason)}</p>` : ''}</td></tr>`).join('')}</tbody></table>
<p class="muted">Evidence: ${h(reading.evidence)}${reading.variants > 1 ? ` (the run learned ${reading.variants} different answers, in different workers or shards: the first is shown)` : ''}. Judged under it: ${reading.requirements.map((id) => `<a href="#req-${h(id)}"><code>${h(id)}</code></a>`).join(', ')}.</p>
<p class="muted">How the suite decides: ${h(reading.judged)}</p>
</div>`,
  );
  return `<section id="readings"><h2>Readings: what the suite learned of the target</h2><p>Where the specification's words allow more than one meaning, or leave a behaviour open, the suite finds out which one the target follows and judges it by that; it fails only what fits no candidate, or a target that follows different ones on different calls.</p>${blocks.join('\n')}</section>`;
}

function renderNotShown(report: ConformanceReport): string {
  const items = report.requirements
    .filter((result) => result.kind === 'not-shown')
    .map(
      (result) => `<div class="not-shown" data-requirement="${h(result.id)}">
<dt><code>${h(result.id)}</code> ${h(result.text)}</dt>
<dd>${result.stance ? `<p>The suite's stance: ${h(result.stance)}</p>` : ''}${
        result.observations.length > 0
          ? `<ul>${result.observations.map((observation) => `<li>Observed: ${h(observation)}</li>`).join('')}</ul>`
          : `<p class="muted">${result.status === 'not-testable' ? 'Not observable through this interface.' : 'Nothing was observed beyond the checks in the matrix.'}</p>`
      }</dd></div>`,
    );
  return `<section id="not-shown"><h2>What the target did on the items the specification does not show</h2><dl>${items.join('\n')}</dl></section>`;
}

/** Requests per operation, and a row for each operation the run sent nothing to, saying why (the verdict's reason names it too). */
function renderOperations(operations: readonly OperationSummary[], unexercised: readonly UnexercisedOperation[]): string {
  if (operations.length === 0) return `<section id="requests"><h2>Requests per operation</h2><p>No request was sent.</p></section>`;
  const missing = unexercised.map(
    (entry) =>
      `<tr class="unexercised"><th scope="row">${h(entry.operation)}</th><td>0</td><td colspan="4">Not exercised: ${h(entry.reason)}</td></tr>`,
  );
  const rows = operations.map(
    (operation) =>
      `<tr><th scope="row">${h(operation.operation)}</th><td>${operation.requests}</td><td>${h(
        Object.entries(operation.statuses)
          .map(([status, count]) => `${status === '0' ? 'no answer' : status}: ${count}`)
          .join(', '),
      )}</td><td>${operation.latencyMs.p50}</td><td>${operation.latencyMs.p95}</td><td>${operation.latencyMs.max}</td></tr>`,
  );
  return `<section id="requests"><h2>Requests per operation</h2>
<table class="operations"><thead><tr><th scope="col">Operation</th><th scope="col">Requests</th><th scope="col">Statuses</th><th scope="col">p50 ms</th><th scope="col">p95 ms</th><th scope="col">max ms</th></tr></thead><tbody>${rows.join('')}${missing.join('')}</tbody></table>
${latencyChart(operations)}</section>`;
}

/** Horizontal bars of each operation's median and 95th-percentile latency, labelled with their values. */
function renderWrites(report: ConformanceReport): string {
  if (report.writes.length === 0)
    return `<section id="writes"><h2>Writes sent</h2><p>No write was sent to the target${report.run.allowWrites ? '' : ' (writes were not allowed)'}.</p></section>`;
  const rows = report.writes.map(
    (write) =>
      `<tr><td>${h(write.method)}</td><td><code>${h(write.url)}</code></td><td>${write.status === 0 ? 'no answer' : write.status}</td><td>${write.count}</td></tr>`,
  );
  return `<section id="writes"><h2>Writes sent</h2><p>Every request the run sent that was not a read, so that its effect on the target is known.</p>
<table class="operations"><thead><tr><th scope="col">Method</th><th scope="col">Address</th><th scope="col">Status</th><th scope="col">Requests</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function latencyChart(operations: readonly OperationSummary[]): string {
  const width = 640;
  const labelWidth = 260;
  const barHeight = 14;
  const rowHeight = 44;
  const scale = Math.max(1, ...operations.map((operation) => operation.latencyMs.p95));
  const bar = (y: number, value: number, kind: 'p50' | 'p95') => {
    const length = Math.max(1, ((width - labelWidth - 90) * value) / scale);
    return `<rect class="bar-${kind}" x="${labelWidth}" y="${y}" width="${length.toFixed(1)}" height="${barHeight}"/><text x="${(labelWidth + length + 6).toFixed(1)}" y="${y + barHeight - 3}">${kind} ${value} ms</text>`;
  };
  const rows = operations.map((operation, index) => {
    const y = 10 + index * rowHeight;
    return `<text class="label" x="0" y="${y + barHeight + 4}">${h(operation.operation)}</text>${bar(y, operation.latencyMs.p50, 'p50')}${bar(y + barHeight + 2, operation.latencyMs.p95, 'p95')}`;
  });
  const height = 10 + operations.length * rowHeight;
  return `<figure><svg role="img" aria-label="Latency per operation: median and 95th percentile" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${rows.join('')}</svg><figcaption>Latency per operation as the suite measured it (median and 95th percentile).</figcaption></figure>`;
}

function renderConfiguration(report: ConformanceReport): string {
  const { run } = report;
  const facts = [
    fact('Suite version', `${run.suite.version}${run.suite.commit ? ` at ${run.suite.commit}` : ''}`),
    fact('OpenAPI document', `${run.openapi.file} sha256 ${run.openapi.sha256}`),
    fact('Requirement catalog', `${run.catalog.file} sha256 ${run.catalog.sha256}`),
    // What a run chose and sent; recorded traffic was sent by its clients, with no seed, and judged as it was.
    ...(report.passive
      ? []
      : [
          fact('Seed and runs per property', `${run.seed}, ${run.runs}`),
          fact('Addresses requested', run.targetAddresses.join(', ') || 'none'),
          fact('Writes allowed', run.allowWrites ? 'yes' : 'no'),
          fact('Runner', `${run.runner.status}; ended ${run.endedAt}`),
        ]),
  ];
  return `<section id="configuration"><h2>Configuration (secrets redacted)</h2><dl class="facts wide">${facts.join('')}</dl><pre>${h(JSON.stringify(run.configuration, null, 2))}</pre>${
    report.untraced.length > 0 ? `<p>Tests without a catalogued requirement: ${h(report.untraced.join('; '))}</p>` : ''
  }</section>`;
}

const STYLE = `
:root { --pass:#1a7f37; --fail:#c62828; --warn:#b26a00; --error:#6a1b9a; --skip:#5f6b76; --muted:#5f6b76; --line:#d8dee4; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
main, nav, header { padding: 0 24px; }
header.verdict { padding: 20px 24px; border-bottom-width: 6px; border-bottom-style: solid; }
.verdict-conformant { background: #e8f5e9; border-color: var(--pass); }
.verdict-non-conformant { background: #fdecea; border-color: var(--fail); }
.verdict-inconclusive { background: #f3e5f5; border-color: var(--error); }
.eyebrow { margin: 0; text-transform: uppercase; letter-spacing: .08em; font-size: 12px; color: var(--muted); }
h1 { margin: 4px 0; font-size: 34px; }
.verdict-conformant h1 { color: var(--pass); } .verdict-non-conformant h1 { color: var(--fail); } .verdict-inconclusive h1 { color: var(--error); }
.reason { margin: 0 0 12px; font-size: 16px; }
dl.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 6px 24px; margin: 0; }
dl.facts.wide { grid-template-columns: 1fr; }
dl.facts dt { font-size: 12px; color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
nav { display: flex; gap: 18px; padding-top: 10px; padding-bottom: 10px; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: #fff; }
nav a { color: #0b57d0; text-decoration: none; }
h2 { margin-top: 28px; font-size: 20px; }
ul.totals { display: flex; flex-wrap: wrap; gap: 10px 22px; list-style: none; padding: 0; margin: 18px 0 0; }
.badge { display: inline-block; min-width: 8.5em; padding: 1px 8px; border-radius: 4px; font-weight: 600; font-size: 13px; white-space: nowrap; border: 1px solid; }
.s-pass { color: #fff; background: var(--pass); border-color: var(--pass); }
.s-fail { color: #fff; background: var(--fail); border-color: var(--fail); }
.s-intermittent { color: var(--fail); background: #fff; border-color: var(--fail); border-style: dashed; }
.s-expected-fail { color: var(--warn); background: #fff8e1; border-color: var(--warn); }
.expected { color: var(--warn); }
.s-warn { color: #fff; background: var(--warn); border-color: var(--warn); }
.s-error { color: #fff; background: var(--error); border-color: var(--error); }
.s-blocked { color: var(--fail); background: #fff; border-color: var(--fail); border-style: dashed; }
.s-skip { color: var(--skip); background: #eef1f4; border-color: #c5ccd3; }
.s-uncovered { color: var(--skip); background: #fff; border-color: var(--skip); border-style: dashed; }
.s-not-testable { color: var(--muted); background: #fff; border-color: #c5ccd3; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
thead th { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; }
table.glance th { width: 16em; font-weight: 600; font-size: 13px; padding: 3px 8px; } table.glance td { padding: 3px 8px; }
.tile { display: inline-block; width: 22px; height: 22px; margin: 1px; border-radius: 3px; border: 1px solid; text-align: center; line-height: 20px; font-size: 13px; font-weight: 700; text-decoration: none; }
.section-row th { background: #f6f8fa; font-size: 15px; border-top: 2px solid var(--line); }
.section-row .counts { font-weight: normal; color: var(--muted); margin-left: 10px; font-size: 13px; }
tr.r-fail td, tr.r-fail th { background: #fff5f5; } tr.r-error td, tr.r-error th { background: #fbf5fc; }
td p { margin: 4px 0 0; font-size: 13px; } .why { color: var(--muted); } .warning { color: var(--warn); }
.tests span { display: inline-block; margin-right: 8px; color: var(--muted); font-family: ui-monospace, monospace; font-size: 12px; }
.tests .t-failed, .tests .t-timedOut, .tests .t-interrupted { color: var(--fail); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: 10px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12.5px; }
pre.error { border-color: var(--error); }
article.failure { border-left: 4px solid var(--fail); padding-left: 14px; margin: 18px 0; }
article.failure h3 { margin: 0; font-size: 16px; } .where { color: var(--muted); margin: 2px 0 6px; }
.not-shown { margin-bottom: 12px; } .not-shown dd { margin-left: 18px; } .muted { color: var(--muted); }
.reading { margin: 18px 0; } .reading h3 { font-size: 16px; margin: 0 0 6px; } .judged-under { color: var(--muted); }
.c-accepted { color: #fff; background: var(--pass); border-color: var(--pass); } .c-consistent { color: var(--skip); background: #fff; border-color: #c5ccd3; } .c-ruled-out { color: var(--fail); background: #fff; border-color: var(--fail); }
article.failure.credited { border-left-color: var(--warn); }
figure { margin: 16px 0; } figcaption { color: var(--muted); font-size: 13px; }
svg text { font: 12px system-ui, sans-serif; fill: #1f2328; } svg .label { font-weight: 600; }
.bar-p50 { fill: #0b57d0; } .bar-p95 { fill: #8ab4f8; }
@media print {
  nav { display: none; } body { font-size: 11pt; } header.verdict, .badge, tr.r-fail td { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  tr, article.failure { break-inside: avoid; } pre { white-space: pre-wrap; }
}
`;
