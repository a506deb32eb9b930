// The diff's fault sweep (issue 56, target 2): every catalog fault that changes an answer of a read
// operation served as the candidate beside the clean reference (two doors over one store, standing,
// one seed), and for each whether the diff reported it, on which operation and field path, in which
// class, naming which requirements. Faults that change only mark-unread are run with writes allowed
// (ALLOW_WRITES=true, each side on the reference's fixture), the only way the diff asks mark-unread.
// `npm run bench -- --diff-faults-only [--write-docs]` runs it alone; the table goes into
// docs/diff.md between its markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { FAULTS, type Fault } from '../../reference/faults/catalog.ts';
import { diffAgainstFault } from '../diff/fault-diff.ts';
import type { DiffFinding } from '../../core/diff/diff-outcome.ts';

/** Faults that change only what mark-unread answers: a read-only diff cannot show them, so they are run with writes. */
const MARK_UNREAD_ONLY: Readonly<Record<string, string>> = {
  'chat-key-from-other-header': 'reads the key of mark-unread only from another header',
  'restricted-key-marks-unread': 'lets a restricted key mark as unread',
  'unread-success-as-string': "mistypes mark-unread's result",
  'unread-204-no-content': 'answers mark-unread 204',
};

/** The seed the sweep draws its plan under: fixed, so that two sweeps ask the same requests. */
export const DIFF_FAULTS_SEED = 7;
/** The share of faults the diff must report (issue 56, target 2). */
const REPORTED_TARGET = 0.95;

interface DiffFaultRow {
  fault: string;
  requirements: readonly string[];
  reported: boolean;
  /** The finding shown: one naming a requirement of the fault if any, else a regression, else the first. */
  shown?: Pick<DiffFinding, 'operation' | 'path' | 'kind' | 'verdict' | 'because'>;
  findings: number;
  /** A finding is a regression naming a requirement the fault breaks. */
  namesRequirement: boolean;
  /** The run could not be judged (a side unreachable): why. */
  error?: string;
  /** Run with writes allowed (a fault of mark-unread only). */
  writes: boolean;
  ms: number;
}

export interface DiffFaultSweep {
  seed: number;
  inScope: number;
  reported: number;
  namingRequirement: number;
  rows: DiffFaultRow[];
}

const needsWrites = (fault: Fault) => fault.name in MARK_UNREAD_ONLY;

function rowOf(fault: Fault, findings: readonly DiffFinding[], ms: number): DiffFaultRow {
  const naming = (finding: DiffFinding) =>
    finding.verdict === 'regression' && finding.because.some((id) => fault.requirements.includes(id));
  const shown = findings.find(naming) ?? findings.find((finding) => finding.verdict === 'regression') ?? findings[0];
  return {
    fault: fault.name,
    requirements: fault.requirements,
    reported: findings.length > 0,
    ...(shown && {
      shown: { operation: shown.operation, path: shown.path, kind: shown.kind, verdict: shown.verdict, because: shown.because },
    }),
    findings: findings.length,
    namesRequirement: findings.some(naming),
    writes: needsWrites(fault),
    ms,
  };
}

/** Runs the diff against each fault (`only` narrows them by name), one after another; mark-unread's with writes. */
export async function measureDiffFaults(log: (line: string) => void, only?: readonly string[]): Promise<DiffFaultSweep> {
  const faults = FAULTS.filter((fault) => only === undefined || only.includes(fault.name));
  const rows: DiffFaultRow[] = [];
  for (const [index, fault] of faults.entries()) {
    const started = performance.now();
    try {
      const outcome = await diffAgainstFault(fault, DIFF_FAULTS_SEED, { writes: needsWrites(fault) });
      rows.push(rowOf(fault, outcome.findings, performance.now() - started));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      rows.push({ ...rowOf(fault, [], performance.now() - started), error: why.slice(0, 200) });
    }
    const row = rows.at(-1)!;
    log(
      `diff against ${fault.name} (${index + 1}/${faults.length}): ${row.reported ? `${row.shown!.verdict} ${row.shown!.because.join(',')}` : 'not reported'}`,
    );
  }
  return {
    seed: DIFF_FAULTS_SEED,
    inScope: rows.length,
    reported: rows.filter((row) => row.reported).length,
    namingRequirement: rows.filter((row) => row.namesRequirement).length,
    rows,
  };
}

const share = (count: number, of: number) => `${count} of ${of} (${of === 0 ? 0 : Math.round((1000 * count) / of) / 10}%)`;
const cell = (text: string) => text.replaceAll('|', '\\|');

export function diffFaultsTarget(sweep: DiffFaultSweep) {
  return {
    name: `Diff: catalog faults that change a read reported (at least ${REPORTED_TARGET * 100}%)`,
    value: share(sweep.reported, sweep.inScope),
    met: sweep.reported >= REPORTED_TARGET * sweep.inScope,
  };
}

export function renderDiffFaults(sweep: DiffFaultSweep): string[] {
  const target = diffFaultsTarget(sweep);
  return [
    `Seed ${sweep.seed}, the reference standing (300 calls unless the fault needs more), the clean door as the primary and the faulty one as the candidate. Reported: ${target.value}${target.met ? '' : ' (below the target)'}; a regression naming a requirement the fault breaks: ${share(sweep.namingRequirement, sweep.inScope)}.`,
    '',
    '| Fault | Reported | Operation | Field path | Class | Requirements named |',
    '|---|---|---|---|---|---|',
    ...sweep.rows.map((row) => {
      const { shown } = row;
      const named = shown ? shown.because.join(', ') || '–' : '–';
      const mark = row.error
        ? `no: ${cell(row.error)}`
        : row.reported
          ? row.namesRequirement
            ? 'yes'
            : 'yes, not its requirement'
          : '**no**';
      return `| \`${row.fault}\`${row.writes ? ' (with writes)' : ''} | ${mark} | ${shown?.operation ?? '–'} | ${shown ? `\`${cell(shown.path)}\` ${shown.kind}` : '–'} | ${shown?.verdict ?? '–'} | ${cell(named)} |`;
    }),
    '',
    `With writes (ALLOW_WRITES=true, each side on the reference's mark-unread fixture), as only they show: ${Object.entries(
      MARK_UNREAD_ONLY,
    )
      .map(([fault, why]) => `\`${fault}\` (${why})`)
      .join('; ')}.`,
  ];
}

const START = '<!-- diff-faults:start -->';
const END = '<!-- diff-faults:end -->';

/** Puts the table into its section of `docPath`, between the markers. */
export function writeDiffFaultsSection(docPath: string, sweep: DiffFaultSweep): void {
  const doc = readFileSync(docPath, 'utf8');
  const [start, end] = [doc.indexOf(START), doc.indexOf(END)];
  if (start < 0 || end < start) throw new Error(`${docPath} has no ${START} … ${END} section`);
  writeFileSync(docPath, `${doc.slice(0, start + START.length)}\n${renderDiffFaults(sweep).join('\n')}\n${doc.slice(end)}`);
}
