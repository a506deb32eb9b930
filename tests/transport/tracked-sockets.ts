// The connections a test's relay or front holds, so that closing it closes them too (a server's
// close alone waits for its connections to end). A connection that fails, or whose other end goes
// away, is ended; nothing else.
import type { Socket } from 'node:net';

export function trackedSockets(): { track(socket: Socket): void; destroyAll(): void } {
  const sockets = new Set<Socket>();
  return {
    track(socket) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    },
    destroyAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
