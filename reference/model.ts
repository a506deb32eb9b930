// The resources of the reference data set, shaped as the interface specification lists them
// (sections 2.1 to 2.3). Optional fields are absent, never null, when they do not apply.
export type CallType = 'audio' | 'video';
export type CallMode = 'call' | 'meet' | 'presenter';
export type CallStatus = 'initiated' | 'ongoing' | 'ended' | 'unanswered' | 'rejected' | 'canceled';
export type ReceiverType = 'user' | 'group';
export type ParticipantState = 'ongoing' | 'ended' | 'unanswered' | 'rejected';

export const CALL_TYPES: readonly CallType[] = ['audio', 'video'];
export const CALL_MODES: readonly CallMode[] = ['call', 'meet', 'presenter'];
export const CALL_STATUSES: readonly CallStatus[] = ['initiated', 'ongoing', 'ended', 'unanswered', 'rejected', 'canceled'];
export const RECEIVER_TYPES: readonly ReceiverType[] = ['user', 'group'];

export interface Participant {
  uid: string;
  totalAudioMinutes: number;
  totalVideoMinutes: number;
  totalDurationInMinutes: number;
  /** Minutes as a number here, unlike the call's timer string. */
  totalDuration: number;
  deviceId?: string;
  isJoined: boolean;
  joinedAt?: number;
  leftAt?: number;
  mid?: string;
  state: ParticipantState;
}

export interface Recording {
  rid: string;
  duration: number;
  startTime: number;
  endTime: number;
  recording_url: string;
}

export interface Call {
  sessionId: string;
  type: CallType;
  mode: CallMode;
  receiverType: ReceiverType;
  receiver: string;
  initiator: string;
  status: CallStatus;
  totalAudioMinutes: number;
  totalVideoMinutes: number;
  totalDurationInMinutes: number;
  /** HH:MM:SS */
  totalDuration: string;
  totalParticipants: number;
  hasRecording: boolean;
  initiatedAt: number;
  startedAt: number;
  endedAt?: number;
  mid?: string;
  participants: Participant[];
}

/** A call with what the reference keeps beside it; `recordings` is shown by Get Call only. */
export interface StoredCall {
  call: Call;
  recordings: Recording[];
}

export interface User {
  uid: string;
  name: string;
}

export interface Group {
  guid: string;
  name: string;
  members: string[];
}

export interface Message {
  id: number;
  guid: string;
  sender: string;
  sentAt: number;
}
