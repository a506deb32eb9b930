// HTTP-JSON-BODIES: the specification says response bodies are JSON, errors included. A body is
// JSON when it parses as JSON and says so: a client that reads the content type (as HTTP clients
// do) cannot take text/html as JSON, whatever the bytes happen to be. And JSON exchanged between
// systems is UTF-8 (RFC 8259, 8.1): bytes that are not reach a client as U+FFFD, or as an error.
import type { Exchange } from '../transport/exchange.ts';
import { shown, type Violation } from './violation.ts';

/** application/json, or a structured type ending in +json, with any parameters. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

export function jsonBody(exchange: Exchange): Violation[] {
  // A 204 or 304 has no body by HTTP's own rules: there is nothing to be JSON (whether that status
  // is the right answer is the operation's requirement to judge).
  if ((exchange.response.status === 204 || exchange.response.status === 304) && exchange.response.text === '') return [];
  const contentType = exchange.response.headers['content-type']?.trim() || undefined;
  const base = {
    check: 'json_body',
    requirement: 'HTTP-JSON-BODIES',
    expected: 'a JSON body',
    exchange,
  };
  // JSON too deep to judge is JSON: its schema's requirement reports it (response-schema.ts).
  if (exchange.response.tooDeep) return [];
  if (!exchange.response.isJson) {
    return [
      {
        ...base,
        title: `${exchange.request.method} ${exchange.operation} answered ${exchange.response.status} with a body that is not JSON`,
        received: `content-type ${contentType ?? '(none)'}, body ${shown(exchange.response.text, 120)}`,
      },
    ];
  }
  if (exchange.response.notUtf8) {
    return [
      {
        ...base,
        title: `${exchange.request.method} ${exchange.operation} answered ${exchange.response.status} with JSON whose bytes are not UTF-8`,
        expected: 'a JSON body encoded in UTF-8 (RFC 8259, 8.1)',
        received: `bytes that are not UTF-8, decoded here as U+FFFD: ${shown(exchange.response.text, 120)}`,
      },
    ];
  }
  if (contentType !== undefined && JSON_MEDIA_TYPE.test(contentType)) return [];
  return [
    {
      ...base,
      title: `${exchange.request.method} ${exchange.operation} answered ${exchange.response.status} with JSON labelled as ${contentType ?? 'nothing'}`,
      expected: 'a JSON body with a JSON content type (application/json)',
      received: `content-type ${contentType ?? '(none)'}`,
    },
  ];
}
