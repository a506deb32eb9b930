import { createServer } from '/work/main/reference/server.ts';
import { startProxyProcess } from '/work/main/tests/passive/proxy-process.ts';
import { mkdtempSync } from 'node:fs';
const reference = createServer({ seed: 3, calls: 300 });
const target = await reference.listen(0);
const dir = mkdtempSync('/tmp/pxr-');
const proxy = await startProxyProcess(['--target', target, '--port', '0', '--report-every-minutes', '0.01'], { REPORT_DIR: dir });
let flowing = true;
let n = 0;
const traffic = (async () => {
  for (let page = 1; flowing; page = (page % 12) + 1) {
    await fetch(`${proxy.base}/calls?perPage=${process.env.PER ?? 10}&page=${page}`, { headers: { apikey: 'demo-full-access-key' } }).then((r) => r.text());
    n++;
    await new Promise((r) => setTimeout(r, 25));
  }
})();
await new Promise((r) => setTimeout(r, 15000));
flowing = false;
await traffic;
const lines = proxy.output().split('\n').filter((l) => l.startsWith('interim'));
console.log('sent', n, 'reports', lines.length, lines.at(-1));
const t = Date.now();
const exit = await proxy.stop();
console.log('stop took', Date.now() - t, 'ms, exit', exit.code, exit.stdout.split('\n').filter((l) => /judged|not judged|sampled/.test(l)).join(' | '));
await reference.close();
