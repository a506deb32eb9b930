// The floor under any judge of a capture written in JavaScript: each body's bytes made text and
// parsed, and nothing else (no file read, no check). Issue 58 asks 1,000 exchanges judged a
// CPU-second; what this floor takes of each exchange's millisecond is what the checks cannot have.
// Measured in the bench's own process, on the same exchanges as the captures, best of a few rounds.
import type { HarEntry } from '../passive/recording-forwarder.ts';

export interface ParseFloor {
  /** Exchanges whose bodies were made text and parsed, a CPU-second. */
  exchangesPerCpuSecond: number;
  meanBodyBytes: number;
  /** Of the bodies, those that parsed: the suite's own answers, all of them JSON. */
  parsed: number;
}

const ROUNDS = 5;

const bodyOf = ({ response }: HarEntry): Buffer | undefined => {
  const { text, encoding } = response.content;
  if (text === undefined || text === '') return undefined;
  return encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
};

export function measureParseFloor(entries: readonly HarEntry[]): ParseFloor {
  const bodies = entries.flatMap((entry) => bodyOf(entry) ?? []);
  let best = Infinity;
  let parsed = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const cpu = process.cpuUsage();
    parsed = 0;
    for (const body of bodies) {
      try {
        if (JSON.parse(body.toString('utf8')) !== undefined) parsed += 1;
      } catch {
        // Not JSON: made text all the same, which is what it costs.
      }
    }
    const used = process.cpuUsage(cpu);
    best = Math.min(best, (used.user + used.system) / 1e6);
  }
  const bytes = bodies.reduce((sum, body) => sum + body.length, 0);
  return { exchangesPerCpuSecond: entries.length / best, meanBodyBytes: bytes / Math.max(1, entries.length), parsed };
}
