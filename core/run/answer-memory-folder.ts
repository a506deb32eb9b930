// The run's memory of judged answers, shared by its workers through its state folder: one file per
// answer, named by its key (core/checks/answer-memory.ts), written whole or not at all. A file that
// cannot be read or written is as if it were not there: the answer is judged again.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnswerMemory, Finding } from '../checks/answer-memory.ts';

const FOLDER = 'judged-answers';

export function answerMemoryIn(stateFolder: string): AnswerMemory {
  const folder = join(stateFolder, FOLDER);
  return {
    recall(key) {
      try {
        return JSON.parse(readFileSync(join(folder, `${key}.json`), 'utf8')) as Finding[];
      } catch {
        return undefined;
      }
    },
    keep(key, found) {
      try {
        mkdirSync(folder, { recursive: true });
        const temporary = join(folder, `${key}.${process.pid}.tmp`);
        writeFileSync(temporary, JSON.stringify(found));
        renameSync(temporary, join(folder, `${key}.json`));
      } catch {
        // Not kept: another worker judges it again.
      }
    },
  };
}
