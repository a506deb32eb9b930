// List Calls and Get Call (specification sections 4.1 and 4.2).
import type { RequestContext } from './context.ts';
import { parseListQuery } from './list-query.ts';
import { errors } from '../errors.ts';
import { sendJson } from '../http.ts';
import type { CallRow } from '../data/generate.ts';

export function listCalls(context: RequestContext): void {
  const { filters, page, perPage } = parseListQuery(context.search);
  const onBehalfOf = actingUser(context);
  const result = context.store.calls.query({ ...filters, ...(onBehalfOf !== undefined && { onBehalfOf }) }, page, perPage);
  sendJson(context.res, 200, {
    data: result.rows.map((row) => context.store.materialize(row).call),
    meta: {
      pagination: {
        total: result.total,
        count: result.rows.length,
        per_page: perPage,
        current_page: page,
        total_pages: Math.ceil(result.total / perPage),
      },
    },
  });
}

export function getCall(context: RequestContext, sessionId: string): void {
  if (sessionId === '') throw errors.emptyCallSessionId();
  const onBehalfOf = actingUser(context);
  const row = context.store.calls.bySessionId(sessionId);
  // With onBehalfOf the calls are scoped to that user: another user's call does not exist for them.
  if (!row || (onBehalfOf !== undefined && !row.uids.includes(onBehalfOf))) throw errors.callSessionNotFound();
  sendJson(context.res, 200, { data: details(context, row) });
}

/** Get Call shows the recordings too, and the two empty lists the deployment's example carries. */
function details(context: RequestContext, row: CallRow) {
  const { call, recordings } = context.store.materialize(row);
  return { ...call, ...(recordings.length > 0 && { recordings }), metaData: [], tags: [] };
}

/** The onBehalfOf header, when given, must name a known user. */
export function actingUser(context: RequestContext): string | undefined {
  const header = context.req.headers.onbehalfof;
  if (header === undefined) return undefined;
  const uid = Array.isArray(header) ? header.join(',') : header;
  if (uid.trim() === '') throw errors.badRequest({ onBehalfOf: ['must not be empty'] });
  if (!context.store.user(uid)) throw errors.uidNotFound(uid);
  return uid;
}
