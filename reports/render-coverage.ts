// The coverage section of index.html: what the run tried of the interface (core/coverage/model.ts),
// to be read at a glance. A table of the dimensions; the filters and their values, the filter pairs
// and the operations' answers as grids of small marks, each with its state in a symbol, a colour
// and, on hover, why or by what; then every item not covered, with its requirements and why. A
// mark's `by` names a test or a recorded exchange, whose address is the traffic's: every text is
// escaped, and the state, read back from a results.json, picks a class only from the three known.
import { DIMENSIONS, type Coverage, type CoverageItem } from '../core/coverage/model.ts';
import { FILTER_NAMES, type FilterName } from '../core/checks/filters.ts';
import { STATE_WORDS, stateOf } from './coverage-summary.ts';
import { htmlEscape as h } from './html-escape.ts';

const SYMBOL = { covered: '✔', weak: '◐', missing: '○' } as const;

/** The nav bar's link to the section, when the report has one. */
export const coverageNavLink = (coverage: Coverage | undefined): string => (coverage ? '<a href="#coverage">Coverage</a>' : '');

export function renderCoverage(coverage: Coverage): string {
  return `<section id="coverage"><h2>Coverage: what the run tried</h2>
<p>Computed from ${h(String(coverage.exchanges))} exchanges. It describes the run, not the target (it weighs on the verdict only under a floor set with COVERAGE_MIN): an item not covered was not tried, or not on data that could tell.</p>
${legend(coverage)}
${dimensionTable(coverage)}
<h3>Filter values</h3>
${filterValues(coverage.items)}
<h3>Filter pairs: AND-narrowing</h3>
${filterPairs(coverage.items)}
<h3>Operations: the statuses they answered, and their documented answers</h3>
${operationAnswers(coverage)}
<h3>Values outside a filter's type or enum, and what they got</h3>
${negativeCases(coverage)}
${notCovered(coverage)}
</section>`;
}

/** What a mark's hover says: the item, its state, why it is not covered, and what covered (or tried) it. */
function tip(item: CoverageItem): string {
  const state = stateOf(item.state);
  const by = item.by ? `; ${state === 'covered' ? 'by' : 'tried by'} ${item.by}` : '';
  return `${item.label}: ${STATE_WORDS[state]}${item.why ? ` — ${item.why}` : ''}${by}`;
}

/** One item as a mark: the symbol repeats the colour, so that it reads in print and without colour. */
function mark(item: CoverageItem, text: string): string {
  const state = stateOf(item.state);
  return `<span class="cv cv-${state}" data-item="${h(item.id)}" data-state="${state}" title="${h(tip(item))}">${SYMBOL[state]}${text === '' ? '' : ` ${h(text)}`}</span>`;
}

const whole = (value: unknown) => h(String(value));

function legend(coverage: Coverage): string {
  const population =
    coverage.population === undefined
      ? 'no list of calls was read, so no answer could be shown to tell'
      : `fewer than ${whole(coverage.population)}, the most calls an unfiltered list held`;
  return `<p class="legend"><span class="cv cv-covered">${SYMBOL.covered}</span> covered · <span class="cv cv-weak">${SYMBOL.weak}</span> tried on data that cannot tell · <span class="cv cv-missing">${SYMBOL.missing}</span> not covered. Hover a mark for why, or for the test or exchange that covered it.</p>
<p class="legend">Data that tells: an answer that kept some calls and dropped some (${population}). Only there does a filter that ignores its value, or one that keeps nothing, fail: on an answer that kept every call or none, a broken filter passes as well. Filters and filter pairs are judged on it; every other item is covered once tried.</p>`;
}

function dimensionTable(coverage: Coverage): string {
  const rows = coverage.dimensions.map((dimension) => {
    const percent = Math.max(0, Math.min(100, Number(dimension.percent) || 0));
    return `<tr data-dimension="${h(dimension.id)}"><th scope="row">${h(dimension.label)}</th><td>${whole(dimension.covered)}</td><td>${whole(dimension.weak)}</td><td>${whole(dimension.missing)}</td><td><span class="meter"><span style="width:${percent}%"></span></span> ${percent}%</td></tr>`;
  });
  return `<table class="cv-dimensions"><thead><tr><th scope="col">Dimension</th><th scope="col">Covered</th><th scope="col">Tried on data that cannot tell</th><th scope="col">Not covered</th><th scope="col">Covered %</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A filter's items: one per value of an enum (`filters/type=audio`), or one for any value and its edge. */
function valueText(item: CoverageItem, name: FilterName): string | undefined {
  const prefix = `filters/${name}`;
  if (item.id === prefix) return 'a value the data holds';
  if (item.id.startsWith(`${prefix}=`)) return item.id.slice(prefix.length + 1);
  if (item.id.startsWith(`${prefix} `)) return item.id.slice(prefix.length + 1);
  return undefined;
}

function filterValues(items: readonly CoverageItem[]): string {
  const rows = FILTER_NAMES.map((name) => {
    const marks = items.flatMap((item) => {
      const text = item.dimension === 'filters' ? valueText(item, name) : undefined;
      return text === undefined ? [] : [mark(item, text)];
    });
    return `<tr data-filter="${name}"><th scope="row"><code>${name}</code></th><td>${marks.join(' ')}</td></tr>`;
  });
  return `<table class="cv-grid"><tbody>${rows.join('')}</tbody></table>`;
}

/** Nine by nine, the upper triangle: each pair once, in the order the filters are declared. */
function filterPairs(items: readonly CoverageItem[]): string {
  const pairs = new Map(items.filter((item) => item.dimension === 'pairs').map((item) => [item.id, item]));
  const head = FILTER_NAMES.map((name) => `<th scope="col"><code>${name}</code></th>`).join('');
  const rows = FILTER_NAMES.map((a, i) => {
    const cells = FILTER_NAMES.map((b, j) => {
      if (j < i) return '<td></td>';
      if (j === i) return '<td class="diagonal"></td>';
      const item = pairs.get(`pairs/${a}+${b}`);
      return `<td>${item ? mark(item, '') : ''}</td>`;
    });
    return `<tr><th scope="row"><code>${a}</code></th>${cells.join('')}</tr>`;
  });
  return `<table class="cv-pairs"><thead><tr><td></td>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Each operation: how often it answered each status, and which of its documented answers the run saw. */
function operationAnswers(coverage: Coverage): string {
  const documented = coverage.items.filter((item) => item.dimension === 'operations');
  const operations = [...new Set([...documented.map((item) => item.operation), ...Object.keys(coverage.statuses)])];
  const statuses = [...new Set(Object.values(coverage.statuses).flatMap((counts) => Object.keys(counts)))].sort();
  const head = statuses.map((status) => `<th scope="col">${status === '0' ? 'no answer' : h(status)}</th>`).join('');
  const rows = operations.map((operation) => {
    const counts = coverage.statuses[operation] ?? {};
    const cells = statuses.map((status) => `<td>${counts[status] === undefined ? '' : whole(counts[status])}</td>`).join('');
    const marks = documented
      .filter((item) => item.operation === operation)
      .map((item) => mark(item, item.label.startsWith(`${operation}: `) ? item.label.slice(operation.length + 2) : item.label));
    return `<tr data-operation="${h(operation)}"><th scope="row">${h(operation)}</th>${cells}<td>${marks.join(' ')}</td></tr>`;
  });
  return `<table class="cv-operations"><thead><tr><th scope="col">Operation</th>${head}<th scope="col">Documented answers</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Each filter's values outside its type or enum: tried or not, and the statuses they were answered with. */
function negativeCases(coverage: Coverage): string {
  const items = coverage.items.filter((item) => item.dimension === 'negative');
  const rows = items.map((item) => {
    const name = item.id.slice('negative/'.length) as FilterName;
    const got = Object.entries(coverage.negativeStatuses?.[name] ?? {})
      .map(([status, count]) => `${status === '0' ? 'no answer' : status} × ${count}`)
      .join(', ');
    return `<tr><th scope="row"><code>${h(name)}</code></th><td>${mark(item, '')}</td><td>${h(got)}</td></tr>`;
  });
  return `<table class="cv-negative"><thead><tr><th scope="col">Filter</th><th scope="col">Tried</th><th scope="col">Statuses got</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * Every item not covered, by dimension, with its requirements and why in words. Items of one
 * dimension that share their requirements and their why share a line (the 35 pairs not tried are
 * one line, not 35): each is still named, and the line is read once.
 */
function notCovered(coverage: Coverage): string {
  const ids = [...new Set([...coverage.dimensions.map((dimension) => dimension.id), ...coverage.items.map((item) => item.dimension)])];
  const groups = ids.flatMap((id) => {
    const items = coverage.items.filter((item) => item.dimension === id && stateOf(item.state) !== 'covered');
    if (items.length === 0) return [];
    const label =
      coverage.dimensions.find((dimension) => dimension.id === id)?.label ?? (Object.hasOwn(DIMENSIONS, id) ? DIMENSIONS[id] : id);
    const lines = new Map<string, { requirements: string[]; why: string; items: CoverageItem[] }>();
    for (const item of items) {
      const why = item.why ?? STATE_WORDS[stateOf(item.state)];
      const key = JSON.stringify([item.requirements, why]);
      const line = lines.get(key) ?? lines.set(key, { requirements: item.requirements, why, items: [] }).get(key)!;
      line.items.push(item);
    }
    const entries = [...lines.values()].map(({ requirements, why, items: named }) => {
      const links = requirements.map((requirement) => `<a href="#req-${h(requirement)}"><code>${h(requirement)}</code></a>`).join(', ');
      return `<li>${named.map((item) => mark(item, item.label)).join(' ')} ${links}: ${h(why)}</li>`;
    });
    return [`<h4>${h(label)} (${items.length})</h4><ul class="cv-list">${entries.join('')}</ul>`];
  });
  const count = coverage.items.filter((item) => stateOf(item.state) !== 'covered').length;
  return `<h3 id="coverage-not-covered">Not covered, or tried on data that cannot tell (${count})</h3>${groups.length === 0 ? '<p>Every item was covered.</p>' : groups.join('\n')}`;
}

/** The section's own rules, added to the page's style sheet. */
export const COVERAGE_STYLE = `
.cv { display: inline-block; padding: 0 5px; margin: 1px 0; border-radius: 3px; border: 1px solid; font-size: 12.5px; line-height: 18px; white-space: nowrap; }
.cv-covered { color: #fff; background: var(--pass); border-color: var(--pass); }
.cv-weak { color: var(--warn); background: #fff8e1; border-color: var(--warn); }
.cv-missing { color: var(--skip); background: #fff; border-color: var(--skip); border-style: dashed; }
.legend { font-size: 13px; color: var(--muted); }
.meter { display: inline-block; width: 80px; height: 8px; background: #eef1f4; vertical-align: middle; } .meter span { display: block; height: 100%; background: var(--pass); }
table.cv-grid th { width: 10em; padding: 3px 8px; } table.cv-grid td { padding: 3px 8px; }
table.cv-pairs, table.cv-operations { width: auto; }
table.cv-pairs th, table.cv-pairs td { padding: 2px 4px; text-align: center; } table.cv-pairs tbody th { text-align: left; }
table.cv-pairs thead th { writing-mode: vertical-rl; transform: rotate(180deg); text-transform: none; letter-spacing: 0; vertical-align: bottom; }
table.cv-pairs td.diagonal { background: #eef1f4; }
table.cv-operations td { white-space: nowrap; } table.cv-operations td:last-child { white-space: normal; }
ul.cv-list { padding-left: 18px; font-size: 13px; } ul.cv-list li { margin: 2px 0; } #coverage h4 { margin: 12px 0 4px; font-size: 14px; }
@media print { .cv, .meter span { print-color-adjust: exact; -webkit-print-color-adjust: exact; } }
`;
