// What kill-matrix.ts hands matrix.config.ts: the rows of one Playwright run of the suite, each a
// project with its own target and settings.

interface PlannedProject {
  /** The project's name: the row's key, which its report folder is named by (per-project-reporter.ts). */
  name: string;
  /** The suite's settings for this row over the run's environment: the target's address, seed, profile, run state. */
  env: Record<string, string>;
  /** When the row runs part of the suite: a regular expression over test titles (Playwright's grep). */
  grep?: string;
}

export interface MatrixPlan {
  workers: number;
  projects: PlannedProject[];
}

/** The folder name of a project's reports under REPORT_DIR. */
export const reportFolderOf = (project: string) => project.replace(/[^A-Za-z0-9-]+/g, '_');
