// The values the specification's enums give the List Calls filters (the contract's CallType,
// CallMode, CallStatus and ReceiverType): what the generators draw from and coverage counts.
export const ENUMS = {
  type: ['audio', 'video'],
  mode: ['call', 'meet', 'presenter'],
  status: ['initiated', 'ongoing', 'ended', 'unanswered', 'rejected', 'canceled'],
  receiverType: ['user', 'group'],
} as const;
