// The judging proxy's own thread: it listens, passes the traffic, starts the judging thread beside it
// and writes the reports at the end (proxy.ts's serveProxy). It runs apart from the process's main
// thread so that its young generation can be kept small (proxy.ts); a thread cannot take signals, so
// the main thread hands them on, in the order they came.
import { parentPort, workerData } from 'node:worker_threads';
import { parseProxyArguments, serveProxy, type FromProxyThread, type ProxyThreadData, type ToProxyThread } from './proxy-command.ts';

const port = parentPort!;
const signals: NodeJS.Signals[] = [];
const waiting: Array<(signal: NodeJS.Signals) => void> = [];
let askForReport = () => {};
port.on('message', (message: ToProxyThread) => {
  if (message.kind === 'report') return askForReport();
  const waiter = waiting.shift();
  if (waiter) waiter(message.signal);
  else signals.push(message.signal);
});

// Checked already by the main thread, which started this one only if they were right.
const data = workerData as ProxyThreadData;
const parsed = parseProxyArguments(data.argv);
if (typeof parsed === 'string') throw new Error(parsed);
const code = await serveProxy(
  parsed,
  {
    nextSignal: () => {
      const signal = signals.shift();
      return signal ? Promise.resolve(signal) : new Promise((resolve) => waiting.push(resolve));
    },
    onReport: (ask) => (askForReport = ask),
  },
  data.settings,
);
port.postMessage({ kind: 'exit', code } satisfies FromProxyThread);
port.close();
