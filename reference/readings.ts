// The readings the reference can serve where the specification's words allow two: which minutes
// are "minutes over all participants", and which entries totalParticipants and participantsCount
// count. `entries` is the reference's own: the sums of the entries' minutes, every entry counted.
// `deployment` is the deployed API's: an ended call's own span in the field of its type, only the
// joined entries counted. How each reading computes a call's totals is in data/call-totals.ts;
// this module only names them, so the suite's configuration can import it without the server.
export const REFERENCE_READINGS = ['entries', 'deployment'] as const;
export type ReferenceReadings = (typeof REFERENCE_READINGS)[number];

export const DEFAULT_READINGS: ReferenceReadings = 'entries';

export const isReferenceReadings = (value: string): value is ReferenceReadings => (REFERENCE_READINGS as readonly string[]).includes(value);
