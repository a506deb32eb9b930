// The suite's configuration in a Playwright process, read once. The runner reads it in
// playwright.config.ts and settles here what it decided (the seed it chose, the runs REQUEST_BUDGET
// scaled), which it also writes into the environment its workers inherit; each worker reads it the
// first time it is asked for, as it loads the same file. The rest of the process (the global setup,
// the fixtures, a reporter given no settings) asks here instead of reading the environment again.
// Playwright loads a process's config, global setup, reporters and test files as one module graph,
// so they all see this one; a part loaded apart would read the same values from that environment.
import { environment, loadConfig, type SuiteConfig } from './config.ts';

let settled: SuiteConfig | undefined;

/** This process's configuration; a bad value throws its ConfigError, every time it is asked for. */
export function configOfThisProcess(): SuiteConfig {
  settled ??= loadConfig(environment());
  return settled;
}

/** The runner's configuration once it has decided the seed and the runs (playwright.config.ts): what the runner process sees from then on. */
export function settleConfigOfThisProcess(config: SuiteConfig): SuiteConfig {
  settled = config;
  return config;
}
