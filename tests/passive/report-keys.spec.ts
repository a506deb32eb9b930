// A passive report keeps the configured keys out in every form (passive/passive-report.ts passes its
// text through reports/redact.ts), not only the secrets the traffic carried in its headers: a
// recording's answer may quote a configured key its request never sent (another client's, a log
// line, a token that holds it base64-encoded), and the judge's own scrubber knows only what the
// traffic carried. The configured keys' redactor once replaced the literal key only.
import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { createPassiveJudge } from '../../passive/judge.ts';
import { buildPassiveReport } from '../../passive/passive-report.ts';
import { freshDir } from '../reports/report-runs.ts';
import { loadPassiveConfig } from '../../core/run/config.ts';

const CALLS = 'https://31780434a95d45.call-us.cometchat.io/v3';

test('a configured key an answer quotes URL-encoded, base64 or cut short, its request sending none, is not in the report', () => {
  const key = `team+key/${randomBytes(16).toString('hex')}`;
  const forms = [encodeURIComponent(key), Buffer.from(key).toString('base64'), key.slice(3, 20).toUpperCase()];
  const judge = createPassiveJudge();
  // A request without a key answered 200: AUTH-EMPTY-KEY is violated, and the violation quotes the body.
  judge.add({
    source: 'hand-made, exchange 1',
    startedAt: '2026-11-26T00:00:00.000Z',
    request: { method: 'GET', url: `${CALLS}/calls`, headers: [] },
    response: {
      status: 200,
      headers: [['content-type', 'application/json']],
      bodyText: JSON.stringify({ data: [], note: forms.join(' ') }),
    },
    durationMs: 10,
  });
  const { report } = buildPassiveReport(judge.finish(), {
    dir: freshDir('passive-report-keys'),
    sources: ['hand-made'],
    rerun: 'none',
    env: { API_KEY: key },
    config: loadPassiveConfig({ API_KEY: key }),
  });
  const text = JSON.stringify(report);
  expect(report.requirements.find((requirement) => requirement.id === 'AUTH-EMPTY-KEY')?.status).toBe('fail');
  expect(text.includes('$API_KEY $API_KEY $API_KEY'), 'the body quoted, each form as the variable').toBe(true);
  expect(forms.filter((form) => text.includes(JSON.stringify(form).slice(1, -1)))).toEqual([]);
});
