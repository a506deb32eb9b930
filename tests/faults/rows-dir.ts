import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';

/** Where the faults project's tests leave their rows: inside the run's output folder, cleaned at each run's start. */
export const rowsDir = (testInfo: TestInfo) =>
  join(testInfo.config.projects.find((project) => project.name === 'faults')?.outputDir ?? testInfo.project.outputDir, 'kill-matrix-rows');
