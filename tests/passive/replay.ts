// The suite's recorded traffic sent again to another reference (one with a fault of the catalog)
// and recorded anew, through the same recording forwarder: the same requests a run sent, the
// answers the faulty reference gives them. A whole suite run per fault costs about 40 s on this
// machine; a replay costs one or two, so the list of which faults passive mode sees can be computed
// for the whole catalog. (The suite chooses some requests by what it saw, such as the ids it
// fetches; a replay keeps the clean run's choices, which is what recorded traffic is.)
import { readFile } from 'node:fs/promises';
import { createServer } from '../../reference/server.ts';
import { DEFAULT_CALLS } from '../../reference/fixtures.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { startRecordingForwarder, type HarEntry } from './recording-forwarder.ts';

/** The requests of a HAR, in order, as paths under its base and headers. */
export async function requestsOf(
  harPath: string,
): Promise<Array<{ method: string; path: string; headers: Array<[string, string]>; body?: string }>> {
  // Our own recording, read whole: JSON.parse takes under a second for the suite's 90 MB, where a
  // streaming parser took twelve (the product reads users' HARs streaming; this is not one).
  const har = JSON.parse(await readFile(harPath, 'utf8')) as { log: { entries: HarEntry[] } };
  return har.log.entries.map((entry) => {
    const url = new URL(entry.request.url);
    return {
      method: entry.request.method,
      path: `${url.pathname}${url.search}`,
      headers: entry.request.headers
        .filter(({ name }) => !['host', 'content-length', 'connection'].includes(name.toLowerCase()))
        .map(({ name, value: text }) => [name, text] as [string, string]),
      ...(entry.request.postData && { body: entry.request.postData.text }),
    };
  });
}

/** Replays the requests against the reference with `faultName` (none: the clean one) and returns what was recorded. */
export async function replayAgainst(requests: Awaited<ReturnType<typeof requestsOf>>, faultName: string | undefined): Promise<HarEntry[]> {
  const fault = faultName === undefined ? undefined : findFault(faultName);
  if (faultName !== undefined && !fault) throw new Error(`No fault named ${faultName}`);
  const reference = createServer({
    calls: fault?.calls ?? DEFAULT_CALLS,
    ...(fault && { fault, readings: fault.readings?.[0] ?? 'entries' }),
  });
  const base = await reference.listen(0);
  const origin = new URL(base).origin;
  const forwarder = await startRecordingForwarder(origin, { base64Every: 5 });
  try {
    // A few at a time, as the suite sends them: the reference answers each as it comes.
    for (let index = 0; index < requests.length; index += 8) {
      await Promise.all(
        requests.slice(index, index + 8).map(async (request) => {
          const response = await fetch(`${forwarder.base}${request.path}`, {
            method: request.method,
            headers: request.headers,
            ...(request.body !== undefined && { body: request.body }),
          });
          await response.arrayBuffer();
        }),
      );
    }
    return forwarder.entries;
  } finally {
    await forwarder.close();
    await reference.close();
  }
}
