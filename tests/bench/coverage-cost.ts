// What coverage costs a run (issue 47, item 6): the exchanges of one suite run against the
// reference, recorded on the wire, observed and tallied as a run does (each observation also
// written and read as JSON, as a request record's attachment carries it), then judged item by item;
// against the time the run itself took. Measured as the share of the run, in one process, so that
// a noisy machine slows both sides alike. Target: at most 5% of a default run's time.
import { observe } from '../../core/coverage/observe.ts';
import { coverageOf } from '../../core/coverage/model.ts';
import { emptyTally, tallyObservation } from '../../core/coverage/tally.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { recordedFromEntry } from '../../passive/har-reader.ts';
import { recognise } from '../../passive/operations.ts';
import { redactRecorded } from '../../passive/redaction.ts';
import type { HarEntry } from '../passive/recording-forwarder.ts';
import type { Target } from './render.ts';

const SHARE_TARGET = 0.05;
/** Passes over the run's exchanges: enough for the time of one to stand out of the clock's grain. */
const PASSES = 20;

export interface CoverageCost {
  exchanges: number;
  /** The coverage of one run: every exchange observed and tallied, and the model judged once. */
  msPerRun: number;
  runMs: number;
  share: number;
}

export function measureCoverageCost(entries: readonly HarEntry[], runMs: number): CoverageCost {
  const exchanges = entries.flatMap((entry, index): Exchange[] => {
    const recorded = recordedFromEntry(entry, `entry ${index}`);
    const found = recorded && recognise(recorded.request.method, recorded.request.url);
    return recorded && found && typeof found !== 'string' ? [redactRecorded(recorded, found.operation).exchange] : [];
  });
  const started = process.hrtime.bigint();
  for (let pass = 0; pass < PASSES; pass += 1) {
    const tally = emptyTally();
    for (const exchange of exchanges) tallyObservation(tally, JSON.parse(JSON.stringify(observe(exchange))), 'a test');
    coverageOf(tally);
  }
  const msPerRun = Number(process.hrtime.bigint() - started) / 1e6 / PASSES;
  return { exchanges: exchanges.length, msPerRun, runMs, share: msPerRun / runMs };
}

export const coverageTarget = (cost: CoverageCost): Target => ({
  name: `coverage ≤ ${SHARE_TARGET * 100}% of a default run's time`,
  value: `${(cost.share * 100).toFixed(3)}% (${cost.msPerRun.toFixed(1)} ms for ${cost.exchanges} exchanges, against ${(cost.runMs / 1000).toFixed(1)} s)`,
  met: cost.share <= SHARE_TARGET,
});
