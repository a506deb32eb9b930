// Two projects: `conformance` is the product (the suite, run against the configured target or the
// embedded reference), `self` is the project's own tests, present only when CONFORMANCE_SELF_TESTS=1
// (`npm test` sets it) so that a plain `npx playwright test` runs the suite and nothing else.
// The suite's configuration is read and validated here, before any test: a bad value ends the run
// with one line naming the variable.
import { defineConfig } from '@playwright/test';
import { chooseSeed, ConfigError, environment, loadConfig, REFERENCE_URL_VARIABLE, type SuiteConfig } from './fixtures/config.ts';

function configOrExit(): SuiteConfig {
  try {
    // A run without CONFORMANCE_SEED gets one here, in the runner, and hands it to every worker
    // (they inherit the environment) so that all of them generate from the same seed.
    const env = environment();
    const chosen = env.CONFORMANCE_SEED === undefined || env.CONFORMANCE_SEED === '';
    if (chosen) process.env.CONFORMANCE_SEED = String(chooseSeed());
    const config = loadConfig(environment());
    if (chosen) process.stderr.write(`Conformance seed ${config.seed} (replay with CONFORMANCE_SEED=${config.seed})\n`);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(2);
  }
}

const selfTests = process.env.CONFORMANCE_SELF_TESTS === '1';
const suite = selfTests ? undefined : configOrExit();

/** With no remote target, the reference starts on a free port and reports its address on stdout. */
const embeddedReference = suite?.target.kind === 'embedded'
  ? {
      command: `node --import tsx reference/main.ts --port 0 --seed ${suite.target.seed} --calls ${suite.target.calls}`,
      wait: { stdout: new RegExp(`reference server listening on (?<${REFERENCE_URL_VARIABLE.toLowerCase()}>http://\\S+)`) },
      env: { API_KEY: suite.apiKey, RESTRICTED_API_KEY: suite.restrictedApiKey ?? '' },
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      timeout: 120_000,
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 2_000 },
    }
  : undefined;

export default defineConfig({
  testDir: 'tests',
  fullyParallel: true,
  reporter: [['list']],
  projects: selfTests
    ? [{ name: 'self', testDir: 'tests/self', timeout: 60_000 }]
    : [{ name: 'conformance', testIgnore: ['self/**'] }],
  ...(embeddedReference && { webServer: embeddedReference }),
});
