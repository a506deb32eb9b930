// The fault page's section (docs/faults.md) on which faults prove which requirement's tests, generated from the fault
// catalog and the requirement catalog, so it cannot drift from either. `npx tsx
// tests/faults/coverage-doc.ts --write` rewrites it in place.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS } from '../../reference/faults/catalog.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';

const FAULTS_DOC = join(PROJECT_ROOT, 'docs', 'faults.md');
const START = '<!-- fault-coverage:start -->';
const END = '<!-- fault-coverage:end -->';

export function faultCoverageSection(): string {
  const catalog = loadCatalog();
  const byRequirement = new Map<string, string[]>();
  for (const fault of FAULTS) {
    for (const id of fault.requirements) byRequirement.set(id, [...(byRequirement.get(id) ?? []), `\`${fault.name}\``]);
  }
  const rows = catalog.requirements
    .filter((requirement) => byRequirement.has(requirement.id))
    .map((requirement) => {
      const level = requirement.level === 'INFO' && requirement.strict ? `${requirement.strict.level} (strict)` : requirement.level;
      return `| ${requirement.id} | ${level} | ${byRequirement.get(requirement.id)!.join(', ')} |`;
    });
  return [
    START,
    `${FAULTS.length} faults; mutation score 100%: \`npm test\` fails if any fault survives.`,
    '',
    '| Requirement | Level | Faults that prove its tests |',
    '|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

/** The section as docs/faults.md has it now, or undefined when the markers are missing. */
export function documentedCoverage(doc = readFileSync(FAULTS_DOC, 'utf8')): string | undefined {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  return start === -1 || end === -1 ? undefined : doc.slice(start, end + END.length);
}

if (process.argv.includes('--write')) {
  const doc = readFileSync(FAULTS_DOC, 'utf8');
  const current = documentedCoverage(doc);
  if (!current) throw new Error(`docs/faults.md has no ${START} … ${END} markers to write between`);
  writeFileSync(FAULTS_DOC, doc.replace(current, faultCoverageSection()));
}
