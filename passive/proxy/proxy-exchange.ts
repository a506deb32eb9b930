// One exchange under way on a client connection: what the proxy knows of it as its bytes pass, and
// the record the sinks get of it once it has passed whole (its bodies joined and decoded).
import { MAX_CAPTURED_BODY_BYTES, decodedBody, type BodyCapture } from './proxy-capture.ts';
import type { UpstreamDeadline } from './proxy-deadline.ts';
import { flat, forwardedRequestHeaders } from './proxy-headers.ts';
import type { Upstream } from './proxy-upstream.ts';
import type { BodyReader } from './proxy-wire.ts';
import type { PassedExchange } from './proxy.ts';
import { responseText } from '../recorded-exchange.ts';

/** The target's answer, as its head said. */
interface Answer {
  status: number;
  statusText: string;
  httpVersion: string;
  fields: Array<[string, string]>;
}

export interface Exchange {
  id: number;
  startedAt: Date;
  t0: number;
  headersAt: number;
  what: string;
  method: string;
  url: string;
  requestVersion: string;
  requestFields: Array<[string, string]>;
  target: URL;
  upstream: Upstream;
  sampledIn: boolean;
  requestCopy: BodyCapture;
  responseCopy: BodyCapture;
  deadline: UpstreamDeadline;
  requestBody: BodyReader;
  requestDone: boolean;
  /** The answer's head as it comes, until it is whole. */
  answerHead: Buffer;
  answer?: Answer;
  answerBody?: BodyReader;
  /** Bytes of the final answer handed to the client (a 502 or 504 can no longer be sent). */
  begun: boolean;
  /** The answer's last byte handed to the client's connection. */
  answered: boolean;
  /** Counted out of the exchanges in flight (passed whole, or not). */
  settled: boolean;
  broken?: 'target' | 'client';
  /** Both connections close once the answer is out: the target's or the client's headers said so, or the framing needs it. */
  closeAfter: boolean;
}

type BodyNotKept = NonNullable<PassedExchange['passed']['requestBodyNotKept']>;

const headerValue = (pairs: ReadonlyArray<[string, string]>, name: string) => pairs.find(([key]) => key.toLowerCase() === name)?.[1];

export function recorded(exchange: Exchange, bodyTexts: boolean): PassedExchange {
  const answer = exchange.answer!;
  const { requestCopy, responseCopy } = exchange;
  // As the judge has always seen them: end to end, with the target's Host.
  const requestHeaders = forwardedRequestHeaders(flat(exchange.requestFields), exchange.target.host);
  const responseHeaders = answer.fields;
  const request = judgedBody(requestCopy, headerValue(requestHeaders, 'content-encoding'));
  const response = judgedBody(responseCopy, headerValue(responseHeaders, 'content-encoding'));
  // An empty request body is no body; an empty answer is one (a 204's, a HEAD's), and judged as such.
  const requestBody = request?.body && request.body.length > 0 ? request.body : undefined;
  const responseBody = response?.body;
  const endedAt = performance.now();
  const timing = { waitMs: exchange.headersAt - exchange.t0, receiveMs: endedAt - exchange.headersAt };
  return {
    source: `proxy, exchange ${exchange.id}`,
    startedAt: exchange.startedAt.toISOString(),
    request: {
      method: exchange.method,
      url: exchange.url,
      headers: requestHeaders,
      ...(requestBody && bodyTexts && { bodyText: requestBody.toString('utf8') }),
    },
    response: {
      status: answer.status,
      headers: responseHeaders,
      ...(responseBody && bodyTexts && responseText(responseBody)),
    },
    durationMs: timing.waitMs + timing.receiveMs,
    passed: {
      httpVersion: `HTTP/${answer.httpVersion}`,
      statusText: answer.statusText,
      ...(requestBody && { requestBody }),
      ...(responseBody && { responseBody }),
      ...(request?.notKept && { requestBodyNotKept: request.notKept }),
      ...(response?.notKept && { responseBodyNotKept: response.notKept }),
      requestBytes: requestCopy.length,
      responseBytes: responseCopy.length,
      ...timing,
    },
  };
}

/** A body as the judge gets it: its bytes decoded, or why it is not there (undefined: no bytes at all). */
function judgedBody(copy: BodyCapture, contentEncoding: string | undefined): { body?: Buffer; notKept?: BodyNotKept } | undefined {
  if (copy.overflowed)
    return {
      notKept: { kind: 'too large', why: `${copy.length} bytes as it passed, over the ${MAX_CAPTURED_BODY_BYTES} the proxy keeps` },
    };
  const bytes = copy.bytes()!;
  if (bytes.length === 0) return { body: bytes };
  const decoded = decodedBody(bytes, contentEncoding);
  return 'body' in decoded ? { body: decoded.body } : { notKept: { kind: decoded.notKept, why: decoded.why } };
}
