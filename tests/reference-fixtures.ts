// Fixtures for the project's own tests of the reference implementation: one real server per
// worker, built by the factory on a free loopback port, and a raw HTTP helper that checks every
// answer against the OpenAPI contract as it goes.
import { test as base, expect, type APIRequestContext } from '@playwright/test';
import { createServer, type ReferenceServer } from '../reference/server.ts';
import { loadContract, type Contract, type OperationId } from '../openapi/contract.ts';

export const SELF_TEST_SEED = 7;
export const SELF_TEST_CALLS = 400;

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body; undefined when the body is not JSON. */
  body: any;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as is: a string or a Buffer, never re-encoded. */
  data?: string | Buffer;
}

interface WorkerFixtures {
  reference: ReferenceServer;
  baseUrl: string;
  contract: Contract;
}

interface TestFixtures {
  /** Sends a request to a path under the base (e.g. `/calls?type=audio`) and returns the answer. */
  send: (path: string, request?: RawRequest) => Promise<Answer>;
  /** Like send, with the reference's fullAccess key. */
  sendAuthorized: (path: string, request?: RawRequest) => Promise<Answer>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  reference: [
    async ({}, use) => {
      const reference = createServer({ seed: SELF_TEST_SEED, calls: SELF_TEST_CALLS });
      await use(reference);
      await reference.close();
    },
    { scope: 'worker' },
  ],
  baseUrl: [async ({ reference }, use) => use(await reference.listen(0)), { scope: 'worker' }],
  contract: [async ({}, use) => use(loadContract()), { scope: 'worker' }],
  send: async ({ request, baseUrl }, use) => use((path, options) => sendRaw(request, `${baseUrl}${path}`, options)),
  sendAuthorized: async ({ request, baseUrl, reference }, use) =>
    use((path, options = {}) =>
      sendRaw(request, `${baseUrl}${path}`, { ...options, headers: { apikey: reference.keys.fullAccess, ...options.headers } }),
    ),
});

export async function sendRaw(request: APIRequestContext, url: string, options: RawRequest = {}): Promise<Answer> {
  const response = await request.fetch(url, {
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    // Strings go as bytes: Playwright would re-encode a string that is not JSON as a JSON string literal.
    ...(options.data !== undefined && { data: typeof options.data === 'string' ? Buffer.from(options.data) : options.data }),
    failOnStatusCode: false,
    maxRedirects: 0,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status(), headers: response.headers(), text, body };
}

/** Every answer of the reference must be JSON and valid against the contract for its operation. */
export function expectContractValid(contract: Contract, operation: OperationId, answer: Answer): void {
  expect(answer.headers['content-type'], answer.text).toMatch(/^application\/json\b/);
  expect(answer.body, `not JSON: ${answer.text.slice(0, 200)}`).toBeDefined();
  expect(contract.validateResponse(operation, answer.status, answer.body), answer.text.slice(0, 400)).toEqual([]);
}

export { expect };
