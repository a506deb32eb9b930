// content_type: mark-unread answers application/json (CHAT-UNREAD-OK names the content type as part
// of the answer), whatever its status.
import type { Exchange } from '../transport/exchange.ts';
import { shown, type Violation } from './violation.ts';

/** Mark-unread's answer is labelled application/json. */
export function contentType(exchange: Exchange): Violation[] {
  const received = exchange.response.headers['content-type'] ?? '';
  if (/^application\/json\b/i.test(received)) return [];
  return [
    {
      check: 'content_type',
      requirement: 'CHAT-UNREAD-OK',
      title: 'mark-unread did not answer application/json',
      expected: 'content-type application/json',
      received: `content-type ${shown(received)}`,
      exchange,
    },
  ];
}
