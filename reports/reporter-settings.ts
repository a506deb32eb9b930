// What the conformance reporter needs of the run's configuration: how the console shows the end of
// the run, what started it (for the replay lines), and the run to compare with. playwright.config.ts,
// which reads the configuration, hands them over as the reporter's options (JSON, as Playwright's
// reporter options are, and nothing secret: Playwright copies its config into its JSON report). A
// merge of blob reports (`merge-reports --reporter=…`) loads no config of the suite's: there they are
// this process's own, as the merging command's environment sets them.
import type { ConsoleMode, SarifSettings, SuiteConfig } from '../core/run/config.ts';
import type { HistorySettings } from '../core/history/history-settings.ts';
import type { Launcher } from '../core/results/replay-command.ts';
import { configOfThisProcess } from '../core/run/config-of-this-process.ts';

export interface ReporterSettings {
  /** CONFORMANCE_CONSOLE. */
  console: ConsoleMode;
  /** CONFORMANCE_LAUNCHER: what started this run (a merge: the command that merges). */
  launcher: Launcher;
  /** BASELINE's results.json, when one is named (the configuration has checked it is one). */
  baseline?: string;
  /** HISTORY_FILE and HISTORY_LIMIT, when a history is kept. */
  history?: HistorySettings;
  /** SARIF_LOCATION and SARIF_PATH_PREFIX: where results.sarif points its results. */
  sarif: SarifSettings;
}

export function reporterSettings(config: SuiteConfig): ReporterSettings {
  return {
    console: config.console,
    launcher: config.launcher,
    ...(config.baseline !== undefined && { baseline: config.baseline }),
    ...(config.history && { history: { ...config.history } }),
    sarif: config.sarif,
  };
}

/**
 * This process's settings, for a reporter given none; where its environment holds no valid
 * configuration (a merge elsewhere), the defaults: the compact console, Playwright as the launcher,
 * no baseline, SARIF results at the catalog's lines.
 */
export function reporterSettingsOfThisProcess(): ReporterSettings {
  try {
    return reporterSettings(configOfThisProcess());
  } catch {
    return { console: 'compact', launcher: 'playwright', sarif: { location: 'catalog' } };
  }
}
