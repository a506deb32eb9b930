// A small seeded PRNG (mulberry32) so the data set is the same for the same seed on every machine.
// Math.random cannot be seeded, and the data set must be reproducible from `--seed`. A class, not
// closures: two of these are made per call, hundreds of thousands of times at start-up.
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  hex(length: number): string;
}

const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

class Mulberry32 implements Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    return this.nextUint32() / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const taken: T[] = [];
    for (let i = 0; i < count && pool.length > 0; i += 1) taken.push(pool.splice(this.int(0, pool.length - 1), 1)[0]!);
    return taken;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) {
      const word = this.nextUint32();
      out += HEX_PAIRS[word >>> 24]! + HEX_PAIRS[(word >>> 16) & 0xff]! + HEX_PAIRS[(word >>> 8) & 0xff]! + HEX_PAIRS[word & 0xff]!;
    }
    return out.length === length ? out : out.slice(0, length);
  }

  private nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
}

export function createRandom(seed: number): Random {
  return new Mulberry32(seed);
}
