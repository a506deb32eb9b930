// A client that walks a listing's pages, as a back office exporting calls or an ops screen paging
// through a list does, recorded in front of the reference through the recording forwarder: for the
// passive self-tests of pages judged together (page-walks.spec.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, type ReferenceOptions } from '../../reference/server.ts';
import { startRecordingForwarder, type HarEntry } from './recording-forwarder.ts';

/** One listing to walk: its filters (as a query) and its page size. */
export interface Listing {
  query: Record<string, string>;
  perPage: number;
}

interface Page {
  data: unknown[];
  meta: { pagination: { total_pages: number } };
}

/**
 * Walks every page of a listing that page 1's total_pages names, and the page after it (a client
 * making sure the list has ended), `pauseMs` between pages; at most `maxPages` pages.
 */
export async function walkListing(base: string, apikey: string, { query, perPage }: Listing, pauseMs = 0, maxPages = 40): Promise<void> {
  const ask = async (page: number): Promise<Page> => {
    const search = new URLSearchParams({ ...query, page: String(page), perPage: String(perPage) });
    return (await (await fetch(`${base}/calls?${search}`, { headers: { apikey } })).json()) as Page;
  };
  const first = await ask(1);
  const last = Math.min(maxPages, first.meta.pagination.total_pages + 1);
  for (let page = 2; page <= last; page += 1) {
    if (pauseMs > 0) await sleep(pauseMs);
    await ask(page);
  }
}

/** What a client does against the reference: given the forwarder's base and the full-access key. */
type Client = (base: string, apikey: string) => Promise<void>;

/** The client's traffic, recorded in front of the reference started with `options`. */
export async function recordAgainstReference(options: ReferenceOptions, client: Client): Promise<HarEntry[]> {
  const reference = createServer(options);
  const forwarder = await startRecordingForwarder(await reference.listen(0));
  try {
    await client(forwarder.base, reference.keys.fullAccess);
    return forwarder.entries;
  } finally {
    await forwarder.close();
    await reference.close();
  }
}
