// Small helpers for faults that rewrite what a call shows.
import type { Answer, ShownCall } from './fault.ts';
import { ApiError } from '../errors.ts';
import { timer } from '../data/calls.ts';

export function participantsOf(call: ShownCall): ShownCall[] {
  return Array.isArray(call.participants) ? (call.participants as ShownCall[]) : [];
}

/** The call with each participant rewritten. */
export function withParticipants(call: ShownCall, change: (participant: ShownCall, index: number) => ShownCall): ShownCall {
  return { ...call, participants: participantsOf(call).map(change) };
}

/** The call without one of its fields, as a serializer that skips it shows it. */
export function without(call: ShownCall, field: string): ShownCall {
  const { [field]: _dropped, ...rest } = call;
  return rest;
}

export function recordingsOf(call: ShownCall): ShownCall[] {
  return Array.isArray(call.recordings) ? (call.recordings as ShownCall[]) : [];
}

/** The call with each recording rewritten (Get Call shows them; a call without any is left alone). */
export function withRecordings(call: ShownCall, change: (recording: ShownCall) => ShownCall): ShownCall {
  const recordings = recordingsOf(call);
  return recordings.length === 0 ? call : { ...call, recordings: recordings.map(change) };
}

/** Minutes as the call's HH:MM:SS timer prints them, the format a serializer wrongly reuses. */
export const minutesAsTimer = (minutes: unknown) => timer(Math.round(Number(minutes) * 60));

/** An answer in the reference's error shape. */
export function errorAnswer(status: number, code: string, message: string): Answer {
  return { status, body: new ApiError(status, code, message).toBody() };
}

export function errorCodeOf(answer: Answer): string | undefined {
  const error = (answer.body as { error?: { code?: unknown } } | undefined)?.error;
  return typeof error?.code === 'string' ? error.code : undefined;
}

/** An ISO 8601 date for a UNIX time, the way a serializer that forgets the contract shows it. */
export const isoDate = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : seconds);

/** A UNIX time in milliseconds, as many loggers and JavaScript's Date.now() give it. */
export const inMilliseconds = (seconds: unknown) => (typeof seconds === 'number' ? seconds * 1000 : seconds);

/** Minutes printed as a decimal string, the way a database DECIMAL column often arrives. */
export const decimalString = (minutes: unknown) => (typeof minutes === 'number' ? minutes.toFixed(2) : minutes);
