// `npm run conformance -- har FILE...` (har.ts judges the files): the command's work is done on a
// thread of its own, whose young generation the command sets (HAR_THREAD_LIMITS). This module is all
// the command's first thread loads of it, so that the modules the judging needs are loaded once.
import { errorLine } from '../core/results/visible.ts';
import { ownFile } from '../core/run/package-paths.ts';
import { startThread } from './threads.ts';

const HAR_THREAD = new URL(ownFile('./har-thread.ts'), import.meta.url);

/**
 * The limits of the thread that judges the files: the one way a program sets V8's heap for itself.
 * Reading a capture makes garbage fast (each answer's text, its parsed body and their copies), and
 * what V8 sizes by the machine's memory held far more of it than the judge keeps: judging 100 MB of
 * the suite's recorded traffic as JSON Lines, whose live heap is about 35 MiB, peaked at 345 MiB
 * resident. The young generation (up to 96 MiB on a machine of 24 GiB; 24 MiB for the proxy's judge)
 * at 16 MiB: 219 MiB at the same CPU time. An old generation whose limit is under 2 GiB is grown by
 * V8 by about twice what is live at each collection, where one of the default 4 GiB is grown by up to
 * four times: 183 MiB, for about a tenth more CPU time. The limit itself bounds one answer: some
 * 60 MB of JSON (26 MB of 100,000 participant entries took 895 MiB), past which the thread ends and
 * the command says so in one line (tests/bench/passive.ts measures all this on 1 GiB).
 */
export const HAR_THREAD_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 2_000 };

/** The har command: its work done on a thread of its own (HAR_THREAD_LIMITS); the exit code. */
export function runHar(args: string[]): Promise<number> {
  const thread = startThread(HAR_THREAD, { workerData: { args }, resourceLimits: HAR_THREAD_LIMITS });
  return new Promise((resolveCode) => {
    let code: number | undefined;
    thread.once('message', (answer: number) => (code = answer));
    // An error of the suite's own that escaped the judging (har.ts catches the rest): one line and a
    // suite error's exit code, never a stack trace, nor 1, which says the traffic broke a requirement.
    thread.once('error', (error) => {
      process.stderr.write(`har: no report: the judge failed: ${errorLine(error)}\n`);
      code ??= 2;
    });
    thread.once('exit', () => resolveCode(code ?? 2));
  });
}
