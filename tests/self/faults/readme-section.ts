// The README's section on which faults prove which requirement's tests, generated from the fault
// catalog and the requirement catalog, so it cannot drift from either. `npx tsx
// tests/self/faults/readme-section.ts --write` rewrites it in place.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS } from '../../../reference/faults/catalog.ts';
import { loadCatalog } from '../../../openapi/catalog.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';

export const README_PATH = join(PROJECT_ROOT, 'README.md');
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

/** The section as the README has it now, or undefined when the markers are missing. */
export function readmeSection(readme = readFileSync(README_PATH, 'utf8')): string | undefined {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start === -1 || end === -1 ? undefined : readme.slice(start, end + END.length);
}

if (process.argv.includes('--write')) {
  const readme = readFileSync(README_PATH, 'utf8');
  const current = readmeSection(readme);
  if (!current) throw new Error(`README.md has no ${START} … ${END} markers to write between`);
  writeFileSync(README_PATH, readme.replace(current, faultCoverageSection()));
}
