// `npx tsx tests/passive/fault-visibility.ts SUITE.har`: for every fault of the catalog, the
// suite's recorded traffic replayed against the reference with that fault (replay.ts), judged
// passively; prints the Markdown table of docs/passive.md (which faults passive mode sees, and why
// not where it does not). Run once by hand; it takes a few minutes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { FAULTS } from '../../reference/faults/catalog.ts';
import { createPassiveJudge } from '../../passive/judge.ts';
import { readHar } from '../../passive/har-reader.ts';
import { harOf } from './recording-forwarder.ts';
import { replayAgainst, requestsOf } from './replay.ts';

async function judgeFault(
  requests: Awaited<ReturnType<typeof requestsOf>>,
  name: string,
  profile: 'spec' | 'strict',
): Promise<{ violated: string[] }> {
  const entries = await replayAgainst(requests, name);
  const path = join(tmpdir(), `passive-fault-${process.pid}.har`);
  writeFileSync(path, JSON.stringify(harOf(entries)));
  const judge = createPassiveJudge({ profile });
  await readHar(path, judge);
  const result = judge.finish();
  return { violated: [...result.requirements].filter(([, tally]) => tally.violations > 0).map(([id]) => id) };
}

if (process.argv[1]?.endsWith('fault-visibility.ts')) {
  const requests = await requestsOf(process.argv[2]!);
  const rows: string[] = [];
  let seen = 0;
  for (const fault of FAULTS) {
    const { violated } = await judgeFault(requests, fault.name, fault.profile ?? 'spec');
    const found = fault.requirements.filter((id) => violated.includes(id));
    if (found.length > 0) seen += 1;
    const row = `| ${fault.name} | ${fault.requirements.join(', ')} | ${found.length > 0 ? `seen: ${found.join(', ')}` : `not seen${violated.length > 0 ? ` (found instead: ${violated.join(', ')})` : ''}`} |`;
    rows.push(row);
    process.stderr.write(`${row}\n`);
  }
  process.stdout.write(
    `${seen} of ${FAULTS.length} faults seen\n\n| Fault | Breaks | Passive mode |\n| --- | --- | --- |\n${rows.join('\n')}\n`,
  );
}
