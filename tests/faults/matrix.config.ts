// The kill matrix's Playwright config: one run of the conformance suite against many references at
// once, a project per row of the matrix (a fault under a reading, living or standing, or the clean
// reference), each with its own target, seed, profile and run state (the suite's
// `conformanceEnvironment` option, fixtures/index.ts) and one worker of its own. One Playwright start
// then serves many rows: most of a row's cost was starting Playwright, not judging.
// The plan (which rows, which tests each runs) is written by kill-matrix.ts into the file
// KILL_MATRIX_PLAN names. Each project gets the same tests and fixtures as the product's
// `conformance` project; its report is the product's conformance reporter's, one per project
// (per-project-reporter.ts).
import { readFileSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import type { Env } from '../../core/run/config.ts';
import type { MatrixPlan } from './matrix-plan.ts';

const planFile = process.env.KILL_MATRIX_PLAN;
if (!planFile) throw new Error('KILL_MATRIX_PLAN names no plan: this config is run by tests/faults/kill-matrix.ts');
const plan = JSON.parse(readFileSync(planFile, 'utf8')) as MatrixPlan;
// What the reports say of each run is computed once, in the runner: its workers load this file too,
// at each start, and need only the projects' names, tests and options.
const inRunner = process.env.TEST_WORKER_INDEX === undefined;
const reportMetadata = inRunner ? await import('./matrix-metadata.ts') : undefined;

export default defineConfig<
  object,
  { conformanceEnvironment: Env; conformanceWorkers: number | undefined; conformanceKeepsWorkerOnFailure: boolean }
>({
  testDir: '../../suite',
  fullyParallel: true,
  workers: plan.workers,
  reporter: [['./detection-reporter.ts'], ['./per-project-reporter.ts']],
  projects: plan.projects.map((project) => ({
    name: project.name,
    // One worker per target: its learning, run state and MAX_IN_FLIGHT are its own.
    workers: 1,
    ...(project.grep !== undefined && { grep: new RegExp(project.grep) }),
    ...(reportMetadata && reportMetadata.projectSettings({ ...process.env, ...project.env })),
    // A row of its fault's own tests expects them to fail: each failure keeping its worker spares a
    // worker's start per failed test (a batch of 16 such rows: 27-32 CPU-s against 42-44). The rows
    // are judged on each test's status and the report, never on Playwright's expected outcome. A row
    // of the whole suite runs as a user's run does, a new worker after each failure.
    use: { conformanceEnvironment: project.env, conformanceWorkers: 1, conformanceKeepsWorkerOnFailure: project.grep !== undefined },
  })),
});
