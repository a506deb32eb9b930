// The contract accepts what the specification allows and nothing less, and rejects what it rules
// out, naming the value path and the place in the OpenAPI document.
import { test, expect } from '@playwright/test';
import { loadContract } from '../../openapi/contract.ts';
import { callList, joinedParticipant, listedCall, neverJoinedParticipant } from './samples.ts';

const contract = loadContract();
const validList = (body: unknown) => contract.validateResponse('listCalls', 200, body);
const validGet = (body: unknown) => contract.validateResponse('getCall', 200, body);

test.describe('the contract accepts what the specification allows', () => {
  test('a list page, and one without per_page', () => {
    expect(validList(callList())).toEqual([]);
    const body = callList();
    delete body.meta.pagination.per_page;
    expect(validList(body)).toEqual([]);
  });

  test('extra fields anywhere in a response', () => {
    const call = { ...listedCall(), hasTranscription: false, transcriptions: [], participants: [{ ...joinedParticipant(), role: 'host' }] };
    expect(validList({ ...callList([call]), links: {} })).toEqual([]);
  });

  test('a participant totalDuration in minutes beside a call totalDuration timer of more than 99 hours', () => {
    expect(validList(callList([{ ...listedCall(), totalDuration: '123:04:05' }]))).toEqual([]);
  });

  test('a participant that never joined, without deviceId, joinedAt, leftAt or mid', () => {
    expect(contract.validateSchema('Participant', neverJoinedParticipant())).toEqual([]);
  });

  test('Get Call answered bare, wrapped in data, or as the one item of a data array, with or without the list-only fields, under any 2XX status', () => {
    const { receiver, initiator, initiatedAt, ...withoutListOnlyFields } = listedCall();
    expect(validGet(listedCall())).toEqual([]);
    expect(validGet({ data: listedCall() })).toEqual([]);
    expect(validGet({ data: [withoutListOnlyFields] })).toEqual([]);
    expect(validGet({ data: withoutListOnlyFields, metaData: [], tags: [] })).toEqual([]);
    expect(contract.validateResponse('getCall', 203, { data: listedCall() })).toEqual([]);
  });

  test('every enum value of the specification', () => {
    for (const status of ['initiated', 'ongoing', 'ended', 'unanswered', 'rejected', 'canceled']) {
      for (const mode of ['call', 'meet', 'presenter']) {
        for (const [type, receiverType] of [
          ['audio', 'user'],
          ['video', 'group'],
        ]) {
          expect(contract.validateSchema('Call', { ...listedCall(), status, mode, type, receiverType })).toEqual([]);
        }
      }
    }
    for (const state of ['ongoing', 'ended', 'unanswered', 'rejected']) {
      expect(contract.validateSchema('Participant', { ...joinedParticipant(), state })).toEqual([]);
    }
  });

  test('the mark-unread result, an error body, and a recording', () => {
    expect(
      contract.validateResponse('markGroupConversationAsUnread', 200, {
        data: { success: true, message: 'The messages after the message id 340 are marked as unread.' },
      }),
    ).toEqual([]);
    expect(
      contract.validateResponse('getCall', 404, {
        error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'no such call', devMessage: 'x', source: 'y' },
      }),
    ).toEqual([]);
    expect(
      contract.validateSchema('Recording', {
        rid: 'r1',
        duration: 0.5,
        startTime: 1692368168,
        endTime: 1692368198,
        recording_url: 'https://example.test/r1.mp4',
      }),
    ).toEqual([]);
  });
});

test.describe('the contract rejects what the specification rules out', () => {
  test('a Get Call data array of no call or of two calls: neither is the details of one call', () => {
    expect(validGet({ data: [] })).not.toEqual([]);
    expect(validGet({ data: [listedCall(), listedCall()] })).not.toEqual([]);
  });

  test('an error body without its code, validated at the shared Error response', () => {
    expect(contract.validateResponse('getCall', 404, { error: { message: 'no such call' } })).toContainEqual(
      expect.objectContaining({ valuePath: '/error', schemaPath: '#/components/schemas/Error/properties/error/required' }),
    );
  });

  test('a call totalDuration that is a number or not HH:MM:SS, naming the value and schema paths', () => {
    expect(validList(callList([{ ...listedCall(), totalDuration: 19 }]))).toContainEqual(
      expect.objectContaining({ valuePath: '/data/0/totalDuration', schemaPath: '#/components/schemas/Timer/type' }),
    );
    for (const timer of ['0:00:19', '00:60:00', '00:00:61', '00:00:19.5', '']) {
      expect(validList(callList([{ ...listedCall(), totalDuration: timer }])), timer).toContainEqual(
        expect.objectContaining({ valuePath: '/data/0/totalDuration', schemaPath: '#/components/schemas/Timer/pattern' }),
      );
    }
  });

  test('a participant totalDuration given as a timer string', () => {
    const call = { ...listedCall(), participants: [{ ...joinedParticipant(), totalDuration: '00:00:19' }] };
    expect(validList(callList([call]))).toContainEqual(expect.objectContaining({ valuePath: '/data/0/participants/0/totalDuration' }));
  });

  test('enum values outside the specification', () => {
    for (const [field, value] of [
      ['status', 'missed'],
      ['type', 'screen'],
      ['mode', 'broadcast'],
      ['receiverType', 'channel'],
    ] as const) {
      expect(contract.validateSchema('Call', { ...listedCall(), [field]: value }), field).toContainEqual(
        expect.objectContaining({ valuePath: `/${field}` }),
      );
    }
    expect(contract.validateSchema('Participant', { ...joinedParticipant(), state: 'left' })).toContainEqual(
      expect.objectContaining({ valuePath: '/state' }),
    );
  });

  test('mistyped fields: a string count, a float timestamp, a numeric deviceId, a string boolean', () => {
    expect(contract.validateSchema('Call', { ...listedCall(), totalParticipants: '2' })).not.toEqual([]);
    expect(contract.validateSchema('Call', { ...listedCall(), startedAt: 1692368168.5 })).not.toEqual([]);
    expect(contract.validateSchema('Call', { ...listedCall(), hasRecording: 'false' })).not.toEqual([]);
    expect(contract.validateSchema('Participant', { ...joinedParticipant(), deviceId: 42 })).not.toEqual([]);
  });

  test('every missing field the specification requires of a listed call', () => {
    for (const field of [
      'sessionId',
      'type',
      'mode',
      'receiverType',
      'receiver',
      'initiator',
      'status',
      'totalAudioMinutes',
      'totalVideoMinutes',
      'totalDurationInMinutes',
      'totalDuration',
      'totalParticipants',
      'hasRecording',
      'initiatedAt',
      'participants',
    ]) {
      const { [field]: _removed, ...call } = listedCall();
      expect(validList(callList([call])), field).toContainEqual(
        expect.objectContaining({ valuePath: '/data/0', message: `must have required property '${field}'` }),
      );
    }
  });

  test('a list without its envelope, and pagination numbers that are not integers', () => {
    expect(validList([listedCall()])).not.toEqual([]);
    expect(validList({ data: [listedCall()] })).toContainEqual(expect.objectContaining({ message: "must have required property 'meta'" }));
    const body = callList();
    body.meta.pagination.total = '1';
    expect(validList(body)).toContainEqual(expect.objectContaining({ valuePath: '/meta/pagination/total' }));
  });

  test('a Get Call answer that is neither a call nor a call wrapped in data', () => {
    expect(validGet({ data: { sessionId: 'x' } })).not.toEqual([]);
    expect(validGet({ call: listedCall() })).not.toEqual([]);
  });

  test('a mark-unread result without success or with a string for it', () => {
    expect(contract.validateResponse('markGroupConversationAsUnread', 200, { data: { message: 'done' } })).not.toEqual([]);
    expect(contract.validateResponse('markGroupConversationAsUnread', 200, { data: { success: 'true', message: 'done' } })).not.toEqual([]);
    expect(contract.validateResponse('markGroupConversationAsUnread', 200, { success: true, message: 'done' })).not.toEqual([]);
  });

  test('a recording whose URL is not a URL', () => {
    expect(
      contract.validateSchema('Recording', { rid: 'r1', duration: 0.5, startTime: 1, endTime: 2, recording_url: 'not a url' }),
    ).toContainEqual(
      expect.objectContaining({
        valuePath: '/recording_url',
        schemaPath: '#/components/schemas/Recording/properties/recording_url/format',
      }),
    );
  });
});

test('every response the document declares compiles into a validator', () => {
  for (const [path, item] of Object.entries(contract.document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (typeof operation !== 'object' || operation === null || !('operationId' in operation)) continue;
      for (const key of Object.keys(operation.responses ?? {})) {
        const status = key === 'default' ? 599 : Number(key.replace('XX', '00'));
        expect(() => contract.validateResponse(operation.operationId as never, status, {}), `${method} ${path} ${key}`).not.toThrow();
      }
    }
  }
});

test('a schema of the document with a bad keyword value, or a keyword ajv does not know, is refused when it is compiled', () => {
  // The document is not checked against the meta-schema as a whole (contract.ts says why): each
  // schema is checked as it is compiled, which is where a broken one must stop the run.
  const withRecording = (property: object) => {
    const document = structuredClone(contract.document) as { components: { schemas: Record<string, { properties: object }> } };
    document.components.schemas.Recording!.properties = { ...document.components.schemas.Recording!.properties, broken: property };
    return loadContract(document as never);
  };
  expect(() => withRecording({ type: 5 }).validateSchema('Recording', {})).toThrow(/type must be JSONType/);
  expect(() => withRecording({ type: 'string', maxLenght: 3 }).validateSchema('Recording', {})).toThrow(/unknown keyword: "maxLenght"/);
  expect(() => withRecording({ type: 'string', maxLength: 3 }).validateSchema('Recording', {})).not.toThrow();
});
