// The judge's speed measured on a thread with the judging proxy's own limits (judge-speed.ts): the
// young generation the proxy gives its judging thread changes the judge's speed by half.
import { parentPort, workerData } from 'node:worker_threads';
import { measureJudgeSpeed } from './judge-speed.ts';

const { pages, warmUp } = workerData as { pages: number; warmUp: number };
parentPort!.postMessage(await measureJudgeSpeed(pages, warmUp));
