// The counting door's process (counting-door.ts): a proxy to DOOR_BACKEND that notes when each
// request arrived, as DoorWatch tells it, and hands the notes to whoever started it.
import { Agent, createServer, request } from 'node:http';
import { DoorWatch, HEARTBEAT_MS } from './door-watch.ts';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);
const arrivals: Array<{ earliest: number; at: number }> = [];
// Spells are judged on the monotonic clock; each note is given on the wall clock, read when the
// note is taken, so that the door's own test can set it beside when it sent the request (Date.now()
// in its own process). A monotonic clock put on the wall clock's scale once, at the door's start
// (performance.timeOrigin), was found 11 ms ahead of the test's wall clock on a loaded machine.
const now = () => performance.now();
const watch = new DoorWatch(now());
const heartbeat = setInterval(() => watch.beat(now()), HEARTBEAT_MS);
const agent = new Agent({ keepAlive: true });
const behind = new URL(process.env.DOOR_BACKEND!);

const server = createServer((incoming, outgoing) => {
  const read = now();
  const at = Date.now();
  arrivals.push({ earliest: at - (read - watch.arrivedFrom(read)), at });
  const upstream = request(
    { host: behind.hostname, port: behind.port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
    (answer) => {
      const headers: string[] = [];
      for (let index = 0; index < answer.rawHeaders.length; index += 2) {
        if (!HOP_BY_HOP.has(answer.rawHeaders[index]!.toLowerCase()))
          headers.push(answer.rawHeaders[index]!, answer.rawHeaders[index + 1]!);
      }
      outgoing.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on('error', () => outgoing.destroy());
  outgoing.on('close', () => upstream.destroy());
  incoming.pipe(upstream);
});

process.on('message', (message: unknown) => {
  if (message === 'arrivals') process.send!(arrivals);
  if (typeof message === 'object' && message !== null && 'holdMs' in message) {
    // Work of the door's own, for its test: nothing else runs meanwhile.
    const end = now() + Number(message.holdMs);
    while (now() < end);
  }
  if (message === 'close') {
    clearInterval(heartbeat);
    server.closeAllConnections();
    agent.destroy();
    server.close(() => process.disconnect());
  }
});
// The door goes with whoever started it.
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send!((server.address() as { port: number }).port));
