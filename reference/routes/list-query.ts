// Parses and validates the query of List Calls: the nine filters of the specification and the
// page selection of the deployment's other lists (`page` from 1, `perPage` 1..1000, default 100).
// Every problem is collected, so one 400 answer names all the bad parameters at once. Parameters
// it does not know are ignored, as a client's extensions must be.
import type { CallFilters } from '../call-index.ts';
import { CALL_MODES, CALL_STATUSES, CALL_TYPES, RECEIVER_TYPES } from '../model.ts';
import { errors } from '../errors.ts';

const DEFAULT_PER_PAGE = 100;
const MAX_PER_PAGE = 1000;
const INT32_MAX = 2 ** 31 - 1;

export interface ListQuery {
  filters: CallFilters;
  page: number;
  perPage: number;
}

/** `pageSize` names the page-size parameter: the deployment's perPage, or limit where the reference serves that reading. */
export function parseListQuery(search: URLSearchParams, pageSize: 'perPage' | 'limit' = 'perPage'): ListQuery {
  const problems: Record<string, string[]> = {};
  const complain = (name: string, message: string) => void (problems[name] ??= []).push(message);
  const single = (name: string): string | undefined => {
    const values = search.getAll(name);
    if (values.length > 1) complain(name, 'must be given at most once');
    if (values[0] === '') complain(name, 'must not be empty');
    return values.length === 1 && values[0] !== '' ? values[0] : undefined;
  };
  const oneOf = (name: string, allowed: readonly string[]) => {
    const value = single(name);
    if (value !== undefined && !allowed.includes(value)) complain(name, `must be one of ${allowed.join(', ')}`);
    return value !== undefined && allowed.includes(value) ? value : undefined;
  };
  const integer = (name: string, min: number, max: number) => {
    const value = single(name);
    if (value === undefined) return undefined;
    const parsed = /^-?\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!(parsed >= min && parsed <= max)) {
      complain(name, `must be an integer from ${min} to ${max}`);
      return undefined;
    }
    return parsed;
  };

  const filters: CallFilters = {};
  const assign = <K extends keyof CallFilters>(key: K, value: CallFilters[K] | undefined) => {
    if (value !== undefined) filters[key] = value;
  };
  assign('type', oneOf('type', CALL_TYPES));
  assign('mode', oneOf('mode', CALL_MODES));
  assign('status', oneOf('status', CALL_STATUSES));
  assign('receiverType', oneOf('receiverType', RECEIVER_TYPES));
  assign('participantsCount', integer('participantsCount', 0, INT32_MAX));
  assign('startedAt', integer('startedAt', -INT32_MAX - 1, INT32_MAX));
  assign('endedAt', integer('endedAt', -INT32_MAX - 1, INT32_MAX));
  const hasRecording = oneOf('hasRecording', ['true', 'false']);
  assign('hasRecording', hasRecording === undefined ? undefined : hasRecording === 'true');
  assign('uid', single('uid'));
  const page = integer('page', 1, INT32_MAX) ?? 1;
  const perPage = integer(pageSize, 1, MAX_PER_PAGE) ?? DEFAULT_PER_PAGE;

  if (Object.keys(problems).length > 0) throw errors.badRequest(problems);
  return { filters, page, perPage };
}
