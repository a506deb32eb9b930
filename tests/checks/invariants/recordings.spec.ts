// Recordings: any object with a rid inside a call, against the Recording schema and in time order,
// and hasRecording true beside one.
import { test, expect } from '@playwright/test';
import {
  recordingEndNotBeforeStart,
  recordingFields,
  recordingMeansHasRecording,
  recordingsIn,
} from '../../../core/checks/invariants/recordings.ts';
import { checkContext, joinedParticipant, listedCall, recording, seen } from '../exchanges.ts';

const { contract } = checkContext();
const withRecording = (changes: Record<string, unknown>) =>
  seen({ ...listedCall(), hasRecording: true, recordings: [{ ...recording(), ...changes }] });

test('a call with a well-formed recording, or none, passes every recording check', () => {
  for (const call of [withRecording({}), seen(listedCall())]) {
    expect([...recordingFields(call, contract), ...recordingEndNotBeforeStart(call), ...recordingMeansHasRecording(call)]).toEqual([]);
  }
});

test('recordings are found wherever the call carries them, but not in participants nor in the call itself', () => {
  const call = {
    ...listedCall(),
    rid: 'not-a-recording',
    media: { recording: recording() },
    participants: [{ ...joinedParticipant(), recording: recording() }],
  };
  expect(recordingsIn(seen(call)).map((found) => found.pointer)).toEqual(['/data/0/media/recording']);
});

test('a recording without recording_url breaks RECORDING-FIELDS', () => {
  expect(recordingFields(withRecording({ recording_url: undefined }), contract)).toEqual([
    expect.objectContaining({
      check: 'recording_fields',
      requirement: 'RECORDING-FIELDS',
      expected: expect.stringContaining('#/components/schemas/Recording/required'),
    }),
  ]);
});

test('a recording_url that is not a URI breaks RECORDING-FIELDS at its place', () => {
  expect(recordingFields(withRecording({ recording_url: 'not a uri' }), contract)).toEqual([
    expect.objectContaining({ requirement: 'RECORDING-FIELDS', received: '"not a uri" at /data/0/recordings/0/recording_url' }),
  ]);
});

test('a recording that ends before it starts breaks RECORDING-END-NOT-BEFORE-START', () => {
  expect(recordingEndNotBeforeStart(withRecording({ endTime: 1692368167 }))).toEqual([
    expect.objectContaining({
      check: 'recording_end_not_before_start',
      requirement: 'RECORDING-END-NOT-BEFORE-START',
      received: '1692368167 at /data/0/recordings/0/endTime',
    }),
  ]);
});

test('a call that shows a recording and says hasRecording false breaks RECORDING-MEANS-HAS-RECORDING', () => {
  const call = seen({ ...listedCall(), hasRecording: false, media: { recording: recording() } });
  expect(recordingMeansHasRecording(call)).toEqual([
    expect.objectContaining({
      check: 'recording_means_has_recording',
      requirement: 'RECORDING-MEANS-HAS-RECORDING',
      expected: 'hasRecording true beside the recording at /data/0/media/recording',
      received: 'false at /data/0/hasRecording',
    }),
  ]);
});

test('hasRecording true with no recording shown is no violation (where and whether records appear is not shown), nor is a missing hasRecording (the schema reports it)', () => {
  expect(recordingMeansHasRecording(seen({ ...listedCall(), hasRecording: true }))).toEqual([]);
  expect(recordingMeansHasRecording(seen({ ...listedCall(), hasRecording: undefined, recordings: [recording()] }))).toEqual([]);
});
