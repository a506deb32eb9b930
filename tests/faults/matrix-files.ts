// The kill matrix as files: kill-matrix.json for machines and kill-matrix.md for people. Each test
// of the faults project leaves its row in the run's output folder; the teardown gathers them.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MatrixRow } from './kill-matrix.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';

export const MATRIX_DIR = join(PROJECT_ROOT, 'kill-matrix');

export function saveRow(rowsDir: string, row: MatrixRow): void {
  mkdirSync(rowsDir, { recursive: true });
  writeFileSync(
    join(rowsDir, `${row.fault.replace(/[^A-Za-z0-9-]+/g, '_')}-${row.conformanceSeed}-${row.referenceSeed}.json`),
    JSON.stringify(row),
  );
}

export function loadRows(rowsDir: string): MatrixRow[] {
  let names: string[];
  try {
    names = readdirSync(rowsDir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names
    .map((name) => JSON.parse(readFileSync(join(rowsDir, name), 'utf8')) as MatrixRow)
    .sort((a, b) => order(a) - order(b) || a.fault.localeCompare(b.fault));
}

const order = (row: MatrixRow) => (row.fault === 'clean' ? 0 : row.expected === 'pass' ? 2 : 1);

export interface MatrixSummary {
  faults: number;
  caught: number;
  /** Caught faults over all faults, in percent. */
  score: number;
  /** Runs that must pass: the clean reference, and strict-only faults under the spec profile. */
  passRuns: number;
  passed: number;
}

function summarize(rows: readonly MatrixRow[]): MatrixSummary {
  const faults = rows.filter((row) => row.expected !== 'pass');
  const mustPass = rows.filter((row) => row.expected === 'pass');
  const caught = faults.filter((row) => row.outcome === 'killed' || row.outcome === 'warned').length;
  return {
    faults: faults.length,
    caught,
    score: faults.length === 0 ? 0 : Math.floor((caught / faults.length) * 1000) / 10,
    passRuns: mustPass.length,
    passed: mustPass.filter((row) => row.outcome === 'passed').length,
  };
}

export function scoreLine(summary: MatrixSummary): string {
  return `Mutation score ${summary.score}%: ${summary.caught} of ${summary.faults} faults caught; ${summary.passed} of ${summary.passRuns} runs that must pass (the clean reference on several seeds, strict-only faults under the spec profile) passed with no warning.`;
}

export function writeMatrix(dir: string, rows: readonly MatrixRow[], seconds: number): MatrixSummary {
  const summary = summarize(rows);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'kill-matrix.json'), `${JSON.stringify({ summary, wallSeconds: seconds, rows }, null, 2)}\n`);
  writeFileSync(join(dir, 'kill-matrix.md'), renderMarkdown(rows, summary, seconds));
  return summary;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function renderMarkdown(rows: readonly MatrixRow[], summary: MatrixSummary, seconds: number): string {
  const lines = [
    '# Kill matrix',
    '',
    `${scoreLine(summary)} Wall time ${seconds.toFixed(0)} s.`,
    '',
    "Each row runs the conformance suite as a child process against the reference with one fault (or none), under one of its readings, standing still or living; rows run side by side in one Playwright run, a project each (tests/faults/matrix-rows.ts says which rows run what). The clean reference, and a sample of the faults rotating by commit, run the whole suite; every other fault row runs the tests of the requirements it breaks. A fault is caught when the run names every requirement it breaks and leaves no requirement it judged in error, or when its target says it does not know the configured key and the run stops before its tests (exit 2), as a user's run does: the row says so.",
    '"Requests to detect" counts the requests the target answered before the first test that reported a declared requirement ended; "Requests" and "Seconds" are the row\'s, from its first test\'s start to its last test\'s end.',
    '',
    '| Fault | Breaks | Ran | Expected | Outcome | Requests to detect | Requests | Seconds | Also reported |',
    '|---|---|---|---|---|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const also = row.violated.filter((id) => !row.requirements.includes(id));
    const breaks =
      row.fault === 'clean'
        ? `nothing (reference seed ${row.referenceSeed}, conformance seed ${row.conformanceSeed})`
        : row.requirements.join(', ');
    const outcome =
      row.outcome === 'survived' || row.outcome === 'unjudged'
        ? `**${row.outcome.toUpperCase()}**: ${row.problem ?? ''}`
        : row.stopped === undefined
          ? row.outcome
          : `${row.outcome}, stopped before the tests: ${row.stopped}`;
    lines.push(
      `| ${cell(row.fault)}${row.profile === 'strict' ? ' (strict)' : ''} | ${cell(breaks)} | ${row.tests === 'whole suite' ? 'whole suite' : 'own tests'} | ${row.expected} | ${cell(outcome)} | ${row.requestsToDetect ?? '-'} | ${row.requests} | ${row.seconds.toFixed(1)} | ${cell(also.join(', '))} |`,
    );
  }
  lines.push('', '## By requirement', '', '| Requirement | Caught faults |', '|---|---|');
  const byRequirement = new Map<string, string[]>();
  for (const row of rows) {
    for (const id of row.requirements) byRequirement.set(id, [...(byRequirement.get(id) ?? []), `${row.fault} (${row.outcome})`]);
  }
  for (const [id, faults] of [...byRequirement].sort(([a], [b]) => a.localeCompare(b)))
    lines.push(`| ${id} | ${cell(faults.join(', '))} |`);
  return `${lines.join('\n')}\n`;
}
