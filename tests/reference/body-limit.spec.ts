// A mark-unread body over 64 KiB sent in chunks, without a Content-Length to refuse it by, answers
// 413 once the limit is passed, changes nothing, and leaves the kept-alive connection serving.
import { Agent } from 'node:http';
import { test, expect, expectContractValid } from '../reference-fixtures.ts';
import { UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import { readPointers } from './store-state.ts';
import { sendChunked } from './raw-http.ts';

const { groupGuid, actingUid, messageId } = UNREAD_FIXTURE;

test.beforeEach(({ reference }) => reference.store.reset());

test('a chunked body over 64 KiB answers 413 ERR_BAD_REQUEST, changes nothing, and the same connection answers the next request', async ({
  baseUrl,
  contract,
  reference,
}) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = `${baseUrl}/groups/${groupGuid}/conversation/read`;
  const headers = {
    apikey: reference.keys.fullAccess,
    'content-type': 'application/json',
    onBehalfOf: actingUid,
    'transfer-encoding': 'chunked',
  };
  try {
    for (const chunkSize of [1_000, 50_000, 65_536]) {
      const before = readPointers(reference.store);
      const padding = Array.from({ length: Math.ceil((4 * 64 * 1024) / chunkSize) }, () => 'x'.repeat(chunkSize));
      const chunks = [`{"messageId":${messageId},"padding":"`, ...padding, '"}'];

      const tooLarge = await sendChunked(url, { method: 'DELETE', headers, chunks, agent, timeoutMs: 10_000 });
      expectContractValid(contract, 'markGroupConversationAsUnread', tooLarge);
      expect(tooLarge.status, `chunks of ${chunkSize}`).toBe(413);
      expect(tooLarge.body.error.code).toBe('ERR_BAD_REQUEST');
      expect(readPointers(reference.store)).toEqual(before);

      const next = await sendChunked(`${baseUrl}/calls?perPage=1`, {
        method: 'GET',
        headers: { apikey: reference.keys.fullAccess },
        agent,
        timeoutMs: 10_000,
      });
      expectContractValid(contract, 'listCalls', next);
      expect(next.status, `the request after chunks of ${chunkSize}`).toBe(200);
    }
  } finally {
    agent.destroy();
  }
});
