// Faults in List Calls' filters: one ignored, off by one, too wide, too narrow, combined with OR,
// or a value the specification allows refused. Most show only for some values or pairs.
import type { Fault } from './fault.ts';
import type { CallRow } from '../data/generate.ts';
import { errors } from '../errors.ts';
import { allRows, filterNames, pageOfRows, union } from './list-rows.ts';
import { REFERENCE_READINGS } from '../readings.ts';

export const FILTER_FAULTS: Fault[] = [
  {
    name: 'type-filter-ignored',
    description: 'The type filter is ignored: calls of both types are returned.',
    requirements: ['CALLS-LIST-FILTER-TYPE'],
    hooks: () => ({ listQuery: ({ filters: { type: _ignored, ...filters }, ...query }) => ({ ...query, filters }) }),
  },
  {
    name: 'mode-presenter-includes-meet',
    description: 'mode=presenter also returns meet calls (presenter treated as a kind of meeting).',
    requirements: ['CALLS-LIST-FILTER-MODE'],
    hooks: () => ({
      listRows: (filters, page, perPage, next) =>
        filters.mode !== 'presenter'
          ? next(filters, page, perPage)
          : pageOfRows(union([allRows(next, filters), allRows(next, { ...filters, mode: 'meet' })]), page, perPage),
    }),
  },
  {
    name: 'status-canceled-ignored',
    description: 'status=canceled is ignored (the other statuses filter correctly).',
    requirements: ['CALLS-LIST-FILTER-STATUS'],
    hooks: () => ({
      listQuery: (query) => (query.filters.status !== 'canceled' ? query : { ...query, filters: { ...query.filters, status: undefined } }),
    }),
  },
  {
    name: 'receiver-type-inverted',
    description: 'receiverType=user returns group calls and receiverType=group user calls.',
    requirements: ['CALLS-LIST-FILTER-RECEIVER-TYPE'],
    hooks: () => ({
      listQuery: (query) =>
        query.filters.receiverType === undefined
          ? query
          : { ...query, filters: { ...query.filters, receiverType: query.filters.receiverType === 'user' ? 'group' : 'user' } },
    }),
  },
  {
    name: 'participants-count-excludes-initiator',
    description: 'participantsCount=n leaves out the initiator, so it returns the calls whose totalParticipants is n+1.',
    requirements: ['CALLS-LIST-FILTER-PARTICIPANTS-COUNT'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      listQuery: (query) =>
        query.filters.participantsCount === undefined
          ? query
          : { ...query, filters: { ...query.filters, participantsCount: query.filters.participantsCount + 1 } },
    }),
  },
  {
    name: 'has-recording-false-ignored',
    description: 'hasRecording=false is ignored (true filters correctly).',
    requirements: ['CALLS-LIST-FILTER-HAS-RECORDING'],
    hooks: () => ({
      listQuery: (query) =>
        query.filters.hasRecording !== false ? query : { ...query, filters: { ...query.filters, hasRecording: undefined } },
    }),
  },
  {
    name: 'uid-includes-group-members',
    description: 'uid also returns calls to any group the user belongs to, though the user did not take part.',
    requirements: ['CALLS-LIST-FILTER-UID'],
    hooks: ({ store }) => ({
      listRows: (filters, page, perPage, next) => {
        const uid = filters.uid;
        if (uid === undefined || filters.receiverType === 'user') return next(filters, page, perPage);
        const groupCalls = allRows(next, { ...filters, uid: undefined, receiverType: 'group' }).filter((row) =>
          store.group(String(store.materialize(row).call.receiver))?.members.includes(uid),
        );
        return pageOfRows(union([allRows(next, filters), groupCalls]), page, perPage);
      },
    }),
  },
  {
    name: 'started-at-filter-ignored',
    description: 'The startedAt filter is ignored, so it selects by no meaning of a start time.',
    requirements: ['CALLS-LIST-FILTER-STARTED-AT'],
    hooks: () => ({ listQuery: ({ filters: { startedAt: _ignored, ...filters }, ...query }) => ({ ...query, filters }) }),
  },
  {
    name: 'started-at-ignored-alone',
    description: 'The startedAt filter is applied only beside another filter: given alone, it is ignored.',
    requirements: ['CALLS-LIST-FILTER-STARTED-AT'],
    hooks: () => ({
      listQuery: (query) => {
        const { startedAt, ...others } = query.filters;
        return startedAt === undefined || filterNames(others).length > 0 ? query : { ...query, filters: others };
      },
    }),
  },
  {
    name: 'started-at-filter-fields-mixed',
    description:
      "The startedAt filter compares an audio call's initiatedAt and a video call's startedAt: each reading of the field fits some calls, neither fits the target.",
    requirements: ['CALLS-LIST-FILTER-STARTED-AT'],
    hooks: () => ({
      // Every call initiated at or after the bound also started at or after it (startedAt is never
      // earlier), so the reference's own answer holds every call this one keeps.
      listRows: (filters, page, perPage, next) => {
        const bound = filters.startedAt;
        if (bound === undefined) return next(filters, page, perPage);
        return pageOfRows(
          allRows(next, filters).filter((row) => (row.type === 'audio' ? row.initiatedAt : row.startedAt) >= bound),
          page,
          perPage,
        );
      },
    }),
  },
  {
    name: 'ended-at-an-hour-late',
    description: 'endedAt is compared in local time (UTC+1): it also returns calls that ended up to an hour after the bound.',
    requirements: ['CALLS-LIST-FILTER-ENDED-AT'],
    hooks: () => ({
      listQuery: (query) =>
        query.filters.endedAt === undefined ? query : { ...query, filters: { ...query.filters, endedAt: query.filters.endedAt + 3600 } },
    }),
  },
  {
    name: 'filters-combined-with-or',
    description: 'Several filters are combined with OR: a call matching any one of them is returned.',
    requirements: ['CALLS-LIST-AND-NARROWING'],
    hooks: () => ({
      listRows: (filters, page, perPage, next) => {
        const names = filterNames(filters);
        if (names.length < 2) return next(filters, page, perPage);
        const scope = filters.onBehalfOf === undefined ? {} : { onBehalfOf: filters.onBehalfOf };
        return pageOfRows(union(names.map((name) => allRows(next, { ...scope, [name]: filters[name] }))), page, perPage);
      },
    }),
  },
  {
    name: 'type-dropped-beside-mode',
    description: 'When type and mode are both given, type is dropped (only that pair is affected).',
    requirements: ['CALLS-LIST-AND-NARROWING'],
    hooks: () => ({
      listQuery: (query) =>
        query.filters.type === undefined || query.filters.mode === undefined
          ? query
          : { ...query, filters: { ...query.filters, type: undefined } },
    }),
  },
  {
    name: 'status-drops-large-calls',
    description: 'With a status filter, calls whose totalParticipants is over ten are left out (a join that times out).',
    requirements: ['CALLS-LIST-FILTER-COMPLETENESS'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      listRows: (filters, page, perPage, next) =>
        filters.status === undefined
          ? next(filters, page, perPage)
          : pageOfRows(
              allRows(next, filters).filter((row) => row.totalParticipants <= 10),
              page,
              perPage,
            ),
    }),
  },
  {
    name: 'uid-means-initiator',
    description: 'uid returns only the calls the user initiated, dropping calls they joined or were invited to.',
    requirements: ['CALLS-LIST-FILTER-COMPLETENESS'],
    hooks: () => ({
      listRows: (filters, page, perPage, next) => {
        const uid = filters.uid;
        return uid === undefined
          ? next(filters, page, perPage)
          : pageOfRows(
              allRows(next, filters).filter((row) => row.uids[0] === uid),
              page,
              perPage,
            );
      },
    }),
  },
  {
    // Two readings of "took part" mixed: having been invited is enough in a group call, not in a 1:1 call.
    name: 'uid-drops-unanswered-one-to-one',
    description:
      'The uid filter, and the onBehalfOf scope that shares its code, leave out 1:1 calls the user never joined, yet keep group calls they never joined.',
    requirements: ['CALLS-LIST-FILTER-UID'],
    hooks: ({ store }) => {
      const joined = (row: CallRow, uid: string) =>
        store.materialize(row).call.participants.some((participant) => participant.uid === uid && participant.isJoined);
      return {
        listRows: (filters, page, perPage, next) => {
          const users = [filters.uid, filters.onBehalfOf].filter((uid) => uid !== undefined);
          if (users.length === 0) return next(filters, page, perPage);
          return pageOfRows(
            allRows(next, filters).filter((row) => row.receiverType === 'group' || users.every((uid) => joined(row, uid))),
            page,
            perPage,
          );
        },
      };
    },
  },
  {
    name: 'mode-presenter-refused',
    description: 'mode=presenter, a value the specification allows, is refused with 400.',
    requirements: ['CALLS-LIST-FILTER-VALUES-ACCEPTED'],
    hooks: () => ({
      listQuery: (query) => {
        if (query.filters.mode === 'presenter') throw errors.badRequest({ mode: ['must be one of call, meet'] });
        return query;
      },
    }),
  },
  {
    name: 'on-behalf-of-ignored',
    description: "List Calls ignores the onBehalfOf header: every call is returned, not only the user's.",
    requirements: ['CALLS-LIST-ON-BEHALF-OF'],
    hooks: () => ({ listRows: ({ onBehalfOf: _ignored, ...filters }, page, perPage, next) => next(filters, page, perPage) }),
  },
];
