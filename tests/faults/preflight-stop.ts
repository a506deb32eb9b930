// The preflight of a user's run, for a row of the kill matrix: the matrix's Playwright config serves
// many rows in one run, a project each, and has no global setup, so each row's target is asked here
// what a user's run asks it first (core/run/preflight.ts). A target that says it does not know the
// configured key stops a user's run before any test, with exit 2 and one line naming the variable;
// the row is then stopped the same way, and its tests are not run.
import { loadConfig, type Env } from '../../core/run/config.ts';
import { ConfigError, configErrorLine } from '../../core/run/config-error.ts';
import { reachTarget } from '../../core/run/preflight.ts';

/** The exit code of a run the preflight stopped: a configuration error's (docs/reports.md). */
export const STOPPED_EXIT_CODE = 2;

/** The line a user's run would stop with, `Configuration error: …`, or undefined when it would go on to its tests. */
export async function preflightStop(env: Env): Promise<string | undefined> {
  try {
    await reachTarget(loadConfig(env));
    return undefined;
  } catch (error) {
    // An unreachable target is the tests' to meet, as it was before the matrix asked.
    return error instanceof ConfigError ? configErrorLine(error) : undefined;
  }
}
