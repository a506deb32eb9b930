// Threads of the passive commands' own: the judging proxy's (proxy/proxy-command.ts) and the har
// command's (har.ts), each started with the young generation its work wants.
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { COMPILED } from '../core/run/package-paths.ts';

/**
 * A thread of the suite's own, started. In the clone, a thread does not inherit the TypeScript loader
 * the command runs under (tsx), and Node checks a thread's entry before any loader it is given on its
 * command line runs: a small JavaScript entry loads the thread's TypeScript through tsx's own API.
 * Installed, the package is JavaScript: the thread starts from its compiled file.
 */
export function startThread(file: URL, options: WorkerOptions): Worker {
  return COMPILED
    ? new Worker(file, options)
    : new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ tsImport }) => tsImport(${JSON.stringify(file.href)}, ${JSON.stringify(import.meta.url)}));`,
        { ...options, eval: true },
      );
}
