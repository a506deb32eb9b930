// The deployed API's rate limit, optional in the reference (`--rate-limit N`: N requests a second),
// so that a suite's handling of it can be tested for real. As the deployment does, every answer
// carries X-Rate-Limit and X-Rate-Limit-Remaining; past the limit the answer is 429
// ERR_TOO_MANY_REQUESTS with Retry-After (seconds) and X-Rate-Limit-Reset (UNIX time).
import { ApiError } from './errors.ts';

interface Admission {
  headers: Record<string, string>;
  /** Set when the request is over the limit. */
  refused?: ApiError;
}

export type RateLimiter = (nowMs?: number) => Admission;

/** A fixed window of one second, counted across all clients and keys (one app, as the deployment counts). */
export function createRateLimiter(perSecond: number): RateLimiter {
  let window = Number.NaN;
  let used = 0;
  return (nowMs = Date.now()) => {
    const second = Math.floor(nowMs / 1000);
    if (second !== window) {
      window = second;
      used = 0;
    }
    const limit = { 'x-rate-limit': String(perSecond) };
    if (used >= perSecond) {
      const reset = second + 1;
      return {
        headers: {
          ...limit,
          'x-rate-limit-remaining': '0',
          'x-rate-limit-reset': String(reset),
          'retry-after': String(Math.max(1, Math.ceil(reset - nowMs / 1000))),
        },
        refused: new ApiError(
          429,
          'ERR_TOO_MANY_REQUESTS',
          `More than ${perSecond} requests in one second; retry after the seconds Retry-After gives.`,
        ),
      };
    }
    used += 1;
    return { headers: { ...limit, 'x-rate-limit-remaining': String(perSecond - used) } };
  };
}
