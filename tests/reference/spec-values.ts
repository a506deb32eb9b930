// The enumerations of the interface specification (section 4.1), restated from the specification
// so that the tests never take the allowed values from the code under test.
export const CALL_TYPES = ['audio', 'video'] as const;
export const CALL_MODES = ['call', 'meet', 'presenter'] as const;
export const CALL_STATUSES = ['initiated', 'ongoing', 'ended', 'unanswered', 'rejected', 'canceled'] as const;
export const RECEIVER_TYPES = ['user', 'group'] as const;

/** startedAt and endedAt are int32 in the specification. */
export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;

/** The nine filters of List Calls, in the specification's order. */
export const FILTER_NAMES = [
  'type',
  'mode',
  'status',
  'receiverType',
  'participantsCount',
  'startedAt',
  'endedAt',
  'hasRecording',
  'uid',
] as const;
