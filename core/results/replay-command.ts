// The command a failure message, a report, a usage line or the help tells the user to run. Its form
// depends on what started the suite and where it runs, which only the starter knows: the command line
// (cli/) sets LAUNCHER_VARIABLE to suitePlace() (core/run/package-paths.ts) for the Playwright it
// starts, and core/run/config.ts reads it into SuiteConfig.launcher, which reaches the reporter and
// the workers like any other setting; the command line's own messages take commandLineHere().
//
// Why these forms (issue 54: a line printed in one place and run in the other failed):
// - in the clone, `npm run conformance -- …`: the clone's script, which runs the TypeScript as it is;
//   `npx calls-conformance` there runs bin/calls-conformance.js, which needs dist/, built only by
//   `npm run build` (or `npm pack`).
// - installed, `npx calls-conformance …`: the only form there (the project has no `conformance`
//   script, and Playwright alone cannot find the installed suite's config).
// - started by Playwright itself (`npx playwright test` in the clone, no variable set): the command
//   the user ran, with the suite's project named, since `playwright test` alone runs the self-tests too.
import { suitePlace, type SuitePlace } from '../run/package-paths.ts';

export const LAUNCHERS = ['clone', 'installed', 'playwright'] as const;
export type Launcher = (typeof LAUNCHERS)[number];
export const LAUNCHER_VARIABLE = 'CONFORMANCE_LAUNCHER';

/** The command line as typed where the suite runs, up to its command (`… run`, `… har FILE`). */
export function commandLine(place: SuitePlace): string {
  return place === 'clone' ? 'npm run conformance --' : 'npx calls-conformance';
}

/** The command line of this process, for the messages of the command line itself. */
export const commandLineHere = (): string => commandLine(suitePlace());

/** The command that runs the suite as it was run, before its filters. */
export function runCommand(launcher: Launcher): string {
  return launcher === 'playwright' ? 'npx playwright test --project=conformance' : `${commandLine(launcher)} run`;
}

/** Runs one test again (its file:line, as Playwright locates it) with the run's seed. */
export function rerunCommand(launcher: Launcher, seed: number, location: string): string {
  return `CONFORMANCE_SEED=${seed} ${runCommand(launcher)} ${location}`;
}

/** Replays one counterexample of a property: its seed and path, the test chosen by its requirement id. */
export function replayCommand(launcher: Launcher, seed: number, path: string, requirement: string): string {
  return `CONFORMANCE_SEED=${seed} CONFORMANCE_PATH=${path} ${runCommand(launcher)} --grep "${requirement} "`;
}
