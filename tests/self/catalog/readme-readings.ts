// The README's section on readings, generated from the catalog's `readings` (openapi/requirements.yaml),
// so what it says the suite accepts cannot drift from what the catalog, and the integrity tests, hold.
// `npx tsx tests/self/catalog/readme-readings.ts --write` rewrites it in place.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../../../openapi/catalog.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';

const README_PATH = join(PROJECT_ROOT, 'README.md');
const START = '<!-- readings:start -->';
const END = '<!-- readings:end -->';

export function readingsSection(): string {
  const catalog = loadCatalog();
  const blocks = catalog.readings.map((reading) => {
    const judged = catalog.requirements.filter((requirement) => requirement.readings?.includes(reading.subject)).map((requirement) => `\`${requirement.id}\``);
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

/** The section as the README has it now, or undefined when the markers are missing. */
export function readmeReadings(readme = readFileSync(README_PATH, 'utf8')): string | undefined {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start === -1 || end === -1 ? undefined : readme.slice(start, end + END.length);
}

if (process.argv.includes('--write')) {
  const readme = readFileSync(README_PATH, 'utf8');
  const current = readmeReadings(readme);
  if (!current) throw new Error(`README.md has no ${START} … ${END} markers to write between`);
  writeFileSync(README_PATH, readme.replace(current, readingsSection()));
}
