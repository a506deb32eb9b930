// The har command's thread (har.ts says why it has one): judges the files it was given, writes the
// reports and the console lines, and answers with the exit code.
import { parentPort, workerData } from 'node:worker_threads';
import { judgeHar } from './har.ts';

parentPort!.postMessage(await judgeHar((workerData as { args: string[] }).args));
