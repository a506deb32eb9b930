// Hand-made bodies for the contract's own tests: the smallest values the specification allows,
// built fresh for every test so a test can break one field without touching the others.
export function joinedParticipant(): Record<string, unknown> {
  return {
    uid: 'user-1',
    totalAudioMinutes: 0.31666666666666665,
    totalVideoMinutes: 0,
    totalDurationInMinutes: 0.31666666666666665,
    totalDuration: 0.31666666666666665,
    deviceId: 'device-1',
    isJoined: true,
    joinedAt: 1692368168,
    leftAt: 1692368187,
    mid: 'mid-1',
    state: 'ended',
  };
}

export function neverJoinedParticipant(): Record<string, unknown> {
  return { uid: 'user-2', totalAudioMinutes: 0, totalVideoMinutes: 0, isJoined: false, state: 'unanswered' };
}

export function listedCall(): Record<string, unknown> {
  return {
    sessionId: 'v1.us.31780434a95d45.1692368168aefba73a1e5938ad7a02f8e61ea1c9a287a08aeb',
    type: 'audio',
    mode: 'call',
    receiverType: 'user',
    receiver: 'user-2',
    initiator: 'user-1',
    status: 'ended',
    totalAudioMinutes: 0.31666666666666665,
    totalVideoMinutes: 0,
    totalDurationInMinutes: 0.31666666666666665,
    totalDuration: '00:00:19',
    totalParticipants: 2,
    hasRecording: false,
    initiatedAt: 1692368160,
    startedAt: 1692368168,
    endedAt: 1692368187,
    mid: 'mid-call',
    participants: [joinedParticipant(), neverJoinedParticipant()],
  };
}

export function callList(calls = [listedCall()]): Record<string, any> {
  return {
    data: calls,
    meta: { pagination: { total: calls.length, count: calls.length, per_page: 100, current_page: 1, total_pages: 1 } },
  };
}
