// Where a deployment counts a rate: at its front door, as each request arrives, before any of its
// work. Here a proxy in a process of its own, in front of the reference, notes every arrival. Nothing
// else runs there, so the reference's work (and the test's) never delays the count. But on a loaded
// machine the door itself may wait for a core, and a request that arrived meanwhile is read only
// when it gets one: two cores running two suites have kept it from running for up to 370 ms.
// The door says when that happened (door-watch.ts): a request read after a spell it missed is known
// only to have arrived at some time within it (busiestSecondSeen).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** When a request arrived (ms, on the wall clock's scale): at `at`, or at some time from `earliest` to `at`. */
export interface Arrival {
  earliest: number;
  at: number;
}

export interface CountingDoor {
  /** The backend's address, through the door (same path). */
  base: string;
  arrivals(): Promise<Arrival[]>;
  /** Keeps the door busy for `ms` with work of its own (for its own test). */
  hold(ms: number): void;
  /** Stops the door's process for `ms`, as a loaded machine may (for its own test). */
  stop(ms: number): Promise<void>;
  close(): Promise<void>;
}

const DOOR_PROCESS = fileURLToPath(new URL('./counting-door-process.ts', import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A counting door in front of the HTTP server at `backend` (`http://127.0.0.1:port/path`). */
export async function startCountingDoor(backend: string): Promise<CountingDoor> {
  const door = spawn(process.execPath, ['--import', 'tsx', DOOR_PROCESS], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', DOOR_BACKEND: backend },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => door.once('exit', () => resolve()));
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      door.once('message', (message) => resolve(message as T));
      door.once('error', reject);
      void exited.then(() => reject(new Error('the counting door has exited')));
    });
  const port = await next<number>();
  return {
    base: `http://127.0.0.1:${port}${new URL(backend).pathname}`,
    arrivals: () => {
      const answer = next<Arrival[]>();
      door.send('arrivals');
      return answer;
    },
    hold: (ms) => door.send({ holdMs: ms }),
    stop: async (ms) => {
      door.kill('SIGSTOP');
      await new Promise((resume) => setTimeout(resume, ms));
      door.kill('SIGCONT');
    },
    close: async () => {
      if (door.connected) door.send('close');
      await exited;
    },
  };
}
