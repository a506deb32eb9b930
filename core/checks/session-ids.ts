// sessionId is the unique call identifier: one list page never shows two calls with the same one.
// (Across pages of one walk, PAGINATION-PAGES-PARTITION holds; across different queries the same
// call rightly appears again.)
import type { Exchange } from '../transport/exchange.ts';
import { callsIn } from './calls-in.ts';
import { shown, type Violation } from './violation.ts';

export function sessionIdUnique(exchange: Exchange): Violation[] {
  const ids = callsIn(exchange)
    .map(({ call }) => call.sessionId)
    .filter((id) => id !== undefined && id !== null);
  const repeated = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
  if (repeated.length === 0) return [];
  return [
    {
      check: 'session_id_unique',
      requirement: 'CALL-SESSION-ID-UNIQUE',
      title: `one list page shows ${repeated.length} sessionId${repeated.length === 1 ? '' : 's'} more than once`,
      expected: 'every call of a page has its own sessionId',
      received: `repeated ${shown(repeated.slice(0, 5))}`,
      exchange,
    },
  ];
}
