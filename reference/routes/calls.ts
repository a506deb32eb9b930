// List Calls and Get Call (specification sections 4.1 and 4.2).
import type { RequestContext } from './context.ts';
import { parseListQuery } from './list-query.ts';
import { errors } from '../errors.ts';
import type { CallRow } from '../data/generate.ts';
import type { Answer, ShownCall } from '../faults/fault.ts';
import { JSON_CONTENT_TYPE, jsonOf } from '../http.ts';
import { inEnvelope } from '../get-envelope.ts';
import { oldestFirst, scopeOf } from '../call-index.ts';

export function listCalls(context: RequestContext): Answer {
  const { fault, store } = context;
  const parsed = parseListQuery(context.search, context.alternatives.includes('page-size-limit') ? 'limit' : 'perPage');
  const { filters, page, perPage } = fault.listQuery ? fault.listQuery(parsed) : parsed;
  const onBehalfOf = actingUser(context);
  const scoped = { ...filters, ...(onBehalfOf !== undefined && { onBehalfOf }) };
  const query = context.alternatives.includes('oldest-first') ? oldestFirst(store.calls.range) : store.calls.query;
  const result = fault.listRows ? fault.listRows(scoped, page, perPage, query) : query(scoped, page, perPage);
  const data = result.rows.map((row) => shown(context, store.materialize(row).call, 'list', row));
  const meta = {
    pagination: {
      total: result.total,
      count: result.rows.length,
      per_page: perPage,
      current_page: page,
      total_pages: Math.ceil(result.total / perPage),
    },
  };
  // Without a fault that could change what is shown, the page is written from each call's JSON,
  // serialized once per kept call: the same bytes as serializing the body, at a fraction of the cost.
  if (!fault.showCall && !fault.answer) {
    return {
      status: 200,
      body: { data, meta },
      raw: { contentType: JSON_CONTENT_TYPE, text: `{"data":[${data.map(jsonOf).join(',')}],"meta":${JSON.stringify(meta)}}` },
    };
  }
  return { status: 200, body: { data, meta } };
}

export function getCall(context: RequestContext, sessionId: string): Answer {
  if (sessionId === '') throw errors.emptyCallSessionId();
  const onBehalfOf = actingUser(context);
  const { fault, store } = context;
  const row = fault.findCall ? fault.findCall(sessionId, store.calls.bySessionId) : store.calls.bySessionId(sessionId);
  // With onBehalfOf the calls are scoped to that user: another user's call does not exist for them.
  const membersOf = context.alternatives.includes('on-behalf-of-groups') ? (guid: string) => store.group(guid)?.members : undefined;
  if (!row || (onBehalfOf !== undefined && !inScope(row, onBehalfOf, membersOf, fault))) throw errors.callSessionNotFound();
  return { status: 200, body: inEnvelope(shown(context, details(context, row), 'get', row), context.getEnvelope) };
}

/** Whether the call is in the user's scope: the reference's, unless a fault decides otherwise. */
function inScope(row: CallRow, uid: string, membersOf: Parameters<typeof scopeOf>[1], fault: RequestContext['fault']): boolean {
  const scoped = () => scopeOf(row, membersOf).includes(uid);
  return fault.inScope ? fault.inScope(row, uid, scoped) : scoped();
}

/** Get Call shows the recordings too, and the two empty lists the deployment's example carries. */
function details(context: RequestContext, row: CallRow) {
  const { call, recordings } = context.store.materialize(row);
  return { ...call, ...(recordings.length > 0 && { recordings }), metaData: [], tags: [] };
}

function shown(context: RequestContext, call: object, where: 'list' | 'get', row: CallRow): ShownCall {
  return context.fault.showCall ? context.fault.showCall(structuredClone(call) as ShownCall, where, row) : (call as ShownCall);
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
