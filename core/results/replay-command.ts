// The command a failure message or report tells the user to run to see it again. It depends on how
// the suite was started, which only the starter knows: the command line (cli/) sets
// LAUNCHER_VARIABLE for the Playwright it starts, and core/run/config.ts reads it into
// SuiteConfig.launcher, which reaches the reporter and the workers like any other setting.
//
// Why these forms:
// - started by the command line, `npx calls-conformance run`, whether the suite is installed or
//   cloned: installed, it is the only form that works (there is no `conformance` script in the
//   user's project, and Playwright alone cannot load the installed TypeScript); in the clone it works
//   too (npx runs the project's own bin when the name matches: measured with npm 11.19.1), so a
//   report reads the same wherever it was made, and the replay exits with the verdict as the run did.
// - started by Playwright itself (`npx playwright test` in the clone, no variable set): the command
//   the user ran, with the suite's project named, since `playwright test` alone runs the self-tests too.

export const LAUNCHERS = ['calls-conformance', 'playwright'] as const;
export type Launcher = (typeof LAUNCHERS)[number];
export const LAUNCHER_VARIABLE = 'CONFORMANCE_LAUNCHER';

/** The command that runs the suite as it was run, before its filters. */
export function runCommand(launcher: Launcher): string {
  return launcher === 'calls-conformance' ? 'npx calls-conformance run' : 'npx playwright test --project=conformance';
}

/** Runs one test again (its file:line, as Playwright locates it) with the run's seed. */
export function rerunCommand(launcher: Launcher, seed: number, location: string): string {
  return `CONFORMANCE_SEED=${seed} ${runCommand(launcher)} ${location}`;
}

/** Replays one counterexample of a property: its seed and path, the test chosen by its requirement id. */
export function replayCommand(launcher: Launcher, seed: number, path: string, requirement: string): string {
  return `CONFORMANCE_SEED=${seed} CONFORMANCE_PATH=${path} ${runCommand(launcher)} --grep "${requirement} "`;
}

/** The passive commands exist only in the command line, installed or cloned: see above. */
export const COMMAND_LINE = 'npx calls-conformance';
