// What a fault is: a named, described, small modifier of the reference implementation that breaks
// the requirements it names. Its hooks replace one step of the reference; each gets the correct
// step as `next`, so a fault changes only what it says it changes.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ApiKeys, Scope } from '../auth.ts';
import type { CallFilters, CallPage } from '../call-index.ts';
import type { CallRow } from '../data/generate.ts';
import type { ListQuery } from '../routes/list-query.ts';
import type { Store } from '../store.ts';
import { DEFAULT_READINGS, type ReferenceReadings } from '../readings.ts';

export type Operation = 'listCalls' | 'getCall' | 'markGroupConversationAsUnread';

/** An answer before it is sent: a status and a JSON body, or, when `raw` is set, that text (or those bytes) as is. */
export interface Answer {
  status: number;
  body: unknown;
  raw?: { contentType: string; text: string | Buffer };
}

export interface AnsweredRequest {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: IncomingHttpHeaders;
  operation: Operation | undefined;
}

/** A call as it is about to be shown, as plain JSON, so a fault can mistype any field of it. */
export type ShownCall = Record<string, unknown>;

export interface FaultHooks {
  /** Authenticates the request; `next` is the reference's check. */
  authenticate?(req: IncomingMessage, operation: Operation, next: () => Scope): Scope;
  /** Refuses a scope that may not mark as unread; `next` is the reference's rule. */
  requireFullAccess?(scope: Scope, next: () => void): void;
  /** Rewrites the parsed List Calls query before it runs. */
  listQuery?(query: ListQuery): ListQuery;
  /** Runs a List Calls query; `next` runs it on the reference's index. */
  listRows?(
    filters: CallFilters,
    page: number,
    perPage: number,
    next: (filters: CallFilters, page: number, perPage: number) => CallPage,
  ): CallPage;
  /** Whether Get Call finds a call in the onBehalfOf user's scope; `next` is the reference's rule. */
  inScope?(row: CallRow, uid: string, next: () => boolean): boolean;
  /** Finds the call Get Call answers with; `next` is the reference's lookup. */
  findCall?(sessionId: string, next: (sessionId: string) => CallRow | undefined): CallRow | undefined;
  /** Rewrites a call as List Calls ('list') or Get Call ('get') is about to show it. */
  showCall?(call: ShownCall, where: 'list' | 'get', row: CallRow): ShownCall;
  /** Rewrites any answer, success or error, just before it is sent. */
  answer?(request: AnsweredRequest, answer: Answer): Answer;
}

export interface Fault {
  /** kebab-case, what `--fault` takes. */
  name: string;
  /** One line: what it breaks, in the terms of the interface. */
  description: string;
  /** The requirement ids it violates; the kill matrix checks the suite reports each of them. */
  requirements: readonly string[];
  /** The profile under which it is a violation; `strict` for the deployed conventions. Default spec. */
  profile?: 'spec' | 'strict';
  /** The size of data set it needs to show (some faults only show at scale). Default: the reference's. */
  calls?: number;
  /**
   * The reference readings the kill matrix runs this fault under; `['entries']` when absent. A fault
   * whose effect or detection involves what the readings change (call minutes, totalParticipants,
   * participantsCount) runs under each reading it breaks something in.
   */
  readings?: readonly ReferenceReadings[];
  /** Builds the hooks for one server (a fault may keep state, e.g. one that changes data on reads). */
  hooks(server: FaultedServer): FaultHooks;
}

/** What a fault may know of the server it breaks. */
interface FaultedServer {
  store: Store;
  keys: ApiKeys;
  /** The readings the server follows, so that a fault that recomputes a total recomputes it by them. */
  readings: ReferenceReadings;
}

/** The readings the kill matrix runs a fault under. */
export const readingsOf = (fault: Fault): readonly ReferenceReadings[] => fault.readings ?? [DEFAULT_READINGS];

export const NO_FAULT: FaultHooks = Object.freeze({});
