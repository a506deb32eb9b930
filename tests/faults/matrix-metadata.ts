// What the runner of a kill-matrix run (matrix.config.ts) sets on each project from the suite's
// configuration as that project's workers read it (the run's environment under the project's):
// its retries, and the metadata its report carries, as the product's config does for its one project.
import { loadConfig, type Env } from '../../core/run/config.ts';
import { METADATA_KEY, runMetadata } from '../../reports/run-metadata.ts';

export function projectSettings(env: Env): { retries: number; metadata: Record<string, unknown> } {
  const config = loadConfig(env);
  return { retries: config.retries, metadata: { [METADATA_KEY]: runMetadata(config) } };
}
