// The envelopes the reference can answer Get Call in, each one the deployment's world holds: `data-object`,
// {"data": call}, its current published example and the default; `data-array`, {"data": [call]}, its
// older published export and what its calls SDK (getCallDetails) reads; `bare`, the call itself, the
// specification's "Call shape" taken literally. The suite accepts each (the get-call-envelope reading),
// so the reference can serve each to prove it. Only names and the wrapping here, so that the suite's
// configuration can import it without the server.
export const GET_ENVELOPES = ['data-object', 'data-array', 'bare'] as const;
export type GetEnvelope = (typeof GET_ENVELOPES)[number];

export const DEFAULT_GET_ENVELOPE: GetEnvelope = 'data-object';

export const isGetEnvelope = (value: string): value is GetEnvelope => (GET_ENVELOPES as readonly string[]).includes(value);

/** Get Call's success body for a call, in the envelope. */
export function inEnvelope(call: unknown, envelope: GetEnvelope): unknown {
  switch (envelope) {
    case 'data-object':
      return { data: call };
    case 'data-array':
      return { data: [call] };
    case 'bare':
      return call;
  }
}
