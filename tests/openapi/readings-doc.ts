// The readings page's section on what the suite accepts (docs/readings.md), generated from the catalog's `readings` (openapi/requirements.yaml),
// so what it says the suite accepts cannot drift from what the catalog, and the integrity tests, hold.
// `npx tsx tests/openapi/readings-doc.ts --write` rewrites it in place.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../../openapi/catalog.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';

const READINGS_DOC = join(PROJECT_ROOT, 'docs', 'readings.md');
const START = '<!-- readings:start -->';
const END = '<!-- readings:end -->';

export function readingsSection(): string {
  const catalog = loadCatalog();
  const blocks = catalog.readings.map((reading) => {
    const judged = catalog.requirements
      .filter((requirement) => requirement.readings?.includes(reading.subject))
      .map((requirement) => `\`${requirement.id}\``);
    return [
      `**\`${reading.subject}\`**: ${reading.question}`,
      '',
      ...reading.candidates.map((candidate) => `- \`${candidate.id}\`: ${candidate.text}`),
      '',
      `How the suite decides: ${reading.judged} Judged under it: ${judged.join(', ')}.`,
    ].join('\n');
  });
  return [START, blocks.join('\n\n'), END].join('\n');
}

/** The section as docs/readings.md has it now, or undefined when the markers are missing. */
export function documentedReadings(doc = readFileSync(READINGS_DOC, 'utf8')): string | undefined {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  return start === -1 || end === -1 ? undefined : doc.slice(start, end + END.length);
}

if (process.argv.includes('--write')) {
  const doc = readFileSync(READINGS_DOC, 'utf8');
  const current = documentedReadings(doc);
  if (!current) throw new Error(`docs/readings.md has no ${START} … ${END} markers to write between`);
  writeFileSync(READINGS_DOC, doc.replace(current, readingsSection()));
}
