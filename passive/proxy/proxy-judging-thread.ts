// The judging proxy's second thread: the judge and the HAR writer, away from the thread that passes
// the traffic. Judging a list page takes about a millisecond (more for the first ones, while the
// contract's schemas compile and the readings are learned); on the proxy's own event loop, that time
// would hold up the next request. Here it costs the traffic nothing. The proxy's thread posts each
// exchange; this one posts back how many it has taken (so the proxy can bound the backlog), and at
// the end writes the reports and answers with the verdict.
import { visibleLine } from '../../core/results/visible.ts';
import { parentPort, workerData } from 'node:worker_threads';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { resolve } from 'node:path';
import { reportDirectory } from '../../core/run/config.ts';
import { createPassiveJudge, type PassiveResult } from '../judge.ts';
import type { PassiveState } from '../judge-state.ts';
import { REPORT_FILES } from '../../reports/conformance-reporter.ts';
import { harWriter } from './proxy-har.ts';
import { writePassiveReports } from '../passive-report.ts';
import { redactorFor } from '../../reports/redact.ts';
import {
  bodyBytes,
  withBodyTexts,
  CUT_AT_STOP,
  describeCut,
  JUDGING_THREAD_NICE,
  TAKEN_EVERY,
  type FromJudgingThread,
  type JudgingThreadData,
  type ToJudgingThread,
} from './proxy-judging-thread-messages.ts';

/**
 * On a busy machine the judge still takes CPU the traffic's thread may be waiting for: on Linux this
 * thread lowers its own priority (JUDGING_THREAD_NICE; setpriority applies to one thread given its
 * id), so that the proxy's thread runs first. Best effort: elsewhere, or where it is not allowed,
 * judging runs at the same priority.
 */
function yieldToTheTraffic(): void {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(thread) && thread > 0) setPriority(thread, JUDGING_THREAD_NICE);
  } catch {
    // Not Linux, or not permitted.
  }
}

yieldToTheTraffic();
const port = parentPort!;
const data = workerData as JudgingThreadData;
const post = (message: FromJudgingThread) => port.postMessage(message);

try {
  // As the proxy command read them as it started (proxy-command.ts).
  const { env, config } = data.settings;
  const judge = createPassiveJudge({
    profile: config.profile,
    settleSeconds: config.settleSeconds,
    maxAnswerAgeSeconds: config.maxAnswerAgeSeconds,
  });
  const har = data.har === undefined ? undefined : harWriter(data.har, data.creator, redactorFor(env));
  let taken = 0;
  let takenBytes = 0;
  let failures = 0;
  /** Set once the proxy stopped and the judge's time to catch up ran out: what is still waiting is counted. */
  const cutFlag = new Int32Array(data.cut);
  let cut = 0;
  port.on('message', (message: ToJudgingThread) => {
    if (message.kind === 'exchange' && Atomics.load(cutFlag, 0) === 1) {
      // Still recorded: a HAR asked for holds every exchange, to be judged again at leisure with `har`.
      try {
        har?.add(withBodyTexts(message.exchange));
      } catch {
        failures += 1;
      }
      cut += 1;
      taken += 1;
      return;
    }
    if (message.kind === 'exchange') {
      const exchange = withBodyTexts(message.exchange);
      try {
        judge.add(exchange);
        har?.add(exchange);
      } catch (error) {
        failures += 1;
        process.stderr.write(
          `judging proxy: ${visibleLine(exchange.source)} could not be judged: ${visibleLine((error as Error).message)}\n`,
        );
      }
      taken += 1;
      takenBytes += bodyBytes(exchange);
      if (taken % TAKEN_EVERY === 0) post({ kind: 'taken', count: taken, bytes: takenBytes });
      return;
    }
    if (message.kind === 'report') return interim(message.notJudged, message.credentialHeaders, message.sampling);
    void finish(message.notJudged, message.credentialHeaders, message.sampling);
  });

  /** The judge's result and its state, with what the proxy counted besides: the exchanges it never handed over, and every credential header it saw. */
  const withTheProxy = (result: PassiveResult, state: PassiveState, notJudged: Array<[string, number]>, credentialHeaders: string[]) => {
    // What passed the proxy but was never judged is counted beside what the judge left alone.
    const own: Array<[string, number]> = [
      ['exchanges the judge failed on', failures],
      [CUT_AT_STOP, cut],
    ];
    for (const [why, count] of [...notJudged, ...own]) if (count > 0) result.ignored[why] = count;
    // The judge names the credential headers of the exchanges it judged; those of the rest (an
    // answer never given, a path outside the interface) were kept out of the reports too. Without
    // them, traffic that all carried apikey but was never judged read "no credential header was present".
    const redacted = [...new Set([...result.redacted, ...credentialHeaders])].sort();
    return { result: { ...result, redacted }, state: { ...state, ignored: result.ignored, redacted } };
  };

  const write = (
    stage: 'interim' | 'final',
    judged: PassiveResult,
    notJudged: Array<[string, number]>,
    credentialHeaders: string[],
    shares: string[],
  ) => {
    const { result, state } = withTheProxy(judged, judge.state(data.sources), notJudged, credentialHeaders);
    return writePassiveReports(result, {
      // The verdict's reason says when only a share was judged, which share and how it was chosen.
      notes: shares.map((share) => `The proxy ${share}.`),
      dir: resolve(reportDirectory(env, 'passive')),
      sources: data.sources,
      rerun: data.rerun,
      env,
      config,
      stage,
      state,
      ...(config.expectations && { expectations: config.expectations }),
    });
  };

  // Written on this thread, as judging is: the traffic's thread never waits for a report.
  const interim = (notJudged: Array<[string, number]>, credentialHeaders: string[], sampling: string | undefined) => {
    try {
      const snapshot = judge.snapshot();
      const written = write('interim', snapshot, notJudged, credentialHeaders, sampling === undefined ? [] : [sampling]);
      post({
        kind: 'reported',
        verdict: written.report.verdict,
        exchanges: snapshot.exchanges,
        asOf: snapshot.endedAt,
        path: resolve(reportDirectory(env, 'passive'), REPORT_FILES.html),
      });
    } catch (error) {
      post({ kind: 'report-failed', message: (error as Error).message });
    }
  };

  const finish = async (notJudged: Array<[string, number]>, credentialHeaders: string[], sampling: string | undefined) => {
    try {
      const harEntries = har ? await har.finish() : undefined;
      const cutShort = cut > 0 ? describeCut(cut, taken) : undefined;
      const shares = [sampling, cutShort].filter((share): share is string => share !== undefined);
      const written = write('final', judge.finish(), notJudged, credentialHeaders, shares);
      const console = `${cutShort === undefined ? '' : `${cutShort}\n`}${written.console}`;
      post({ kind: 'done', exitCode: written.exitCode, console, ...(harEntries !== undefined && { harEntries }) });
    } catch (error) {
      post({ kind: 'failed', message: (error as Error).message });
    }
    port.close();
  };
  post({ kind: 'ready' });
} catch (error) {
  post({ kind: 'failed', message: (error as Error).message });
  port.close();
}
