// The fault catalog itself: enough faults, well named and described, each naming requirements the
// suite can observe and the readings it runs under, together covering every MUST and SHOULD the
// interface can show (and every strict convention); the command line lists and runs them; the
// table in docs/faults.md matches it.
import { test, expect, sendRaw } from '../reference-fixtures.ts';
import { FAULTS, findFault } from '../../reference/faults/catalog.ts';
import { createServer } from '../../reference/server.ts';
import { createStore } from '../../reference/store.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { REFERENCE_READINGS } from '../../reference/readings.ts';
import { readingsOf } from '../../reference/faults/fault.ts';
import { isTestable, loadCatalog } from '../../openapi/catalog.ts';
import { startReference } from './reference-process.ts';
import { faultCoverageSection, documentedCoverage } from '../faults/coverage-doc.ts';

const catalog = loadCatalog();
const declared = (profile: 'spec' | 'strict') =>
  new Set(FAULTS.filter((fault) => (fault.profile ?? 'spec') === profile).flatMap((fault) => fault.requirements));

test('the catalog holds at least 30 faults with unique kebab-case names and one-line descriptions', () => {
  expect(FAULTS.length).toBeGreaterThanOrEqual(30);
  expect(new Set(FAULTS.map((fault) => fault.name)).size).toBe(FAULTS.length);
  for (const fault of FAULTS) {
    expect(fault.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(fault.description, fault.name).toMatch(/^[A-Z"a-z].{10,200}\.$/);
    expect(fault.description, fault.name).not.toContain('\n');
  }
});

test('each fault names at least one requirement, each a testable requirement of the catalog', () => {
  for (const fault of FAULTS) {
    expect(fault.requirements.length, fault.name).toBeGreaterThan(0);
    for (const id of fault.requirements) {
      const requirement = catalog.byId.get(id);
      expect(requirement, `${fault.name} names ${id}`).toBeDefined();
      expect(isTestable(requirement!), `${fault.name} names ${id}, which the interface cannot observe`).toBe(true);
    }
  }
});

test('each fault runs under one or more distinct readings of the reference, and builds its hooks under each', () => {
  const store = createStore(1, 20);
  for (const fault of FAULTS) {
    const readings = readingsOf(fault);
    expect(readings.length, fault.name).toBeGreaterThan(0);
    expect(new Set(readings).size, fault.name).toBe(readings.length);
    for (const reading of readings) {
      expect(REFERENCE_READINGS, fault.name).toContain(reading);
      expect(typeof fault.hooks({ store, keys: DEMO_KEYS, readings: reading }), fault.name).toBe('object');
    }
  }
});

test('the faults on call minutes, totalParticipants and participantsCount run under both readings', () => {
  const readingSensitive = [
    'minutes-of-initiator-only',
    'total-participants-counts-users',
    'participant-cap-off-by-one',
    'call-minutes-as-strings',
    'total-participants-as-string',
    'participants-count-excludes-initiator',
    'status-drops-large-calls',
    'duration-leaves-out-video',
    'call-minutes-fit-neither-reading',
    'call-minutes-readings-mixed',
    'total-participants-fits-neither-count',
    'total-participants-readings-mixed',
    'minutes-change-after-settled',
  ];
  for (const name of readingSensitive) expect(readingsOf(findFault(name)!), name).toEqual(REFERENCE_READINGS);
  // Under the reference's own readings it would change nothing: the two counts are the same there.
  expect(readingsOf(findFault('participants-count-mixes-readings')!)).toEqual(['deployment']);
});

test('together the faults break every testable MUST and SHOULD requirement, and every strict convention under the strict profile', () => {
  const spec = declared('spec');
  const strict = declared('strict');
  const testable = catalog.requirements.filter(isTestable);
  expect(
    testable
      .filter((requirement) => requirement.level === 'MUST' || requirement.level === 'SHOULD')
      .map((requirement) => requirement.id)
      .filter((id) => !spec.has(id)),
  ).toEqual([]);
  expect(
    testable
      .filter((requirement) => requirement.strict)
      .map((requirement) => requirement.id)
      .filter((id) => !strict.has(id)),
  ).toEqual([]);
});

test('--list-faults prints every fault with its requirements and description, and exits 0', async () => {
  const reference = startReference(['--list-faults']);
  try {
    expect(await reference.waitForExit(20_000)).toEqual({ code: 0, signal: null });
    for (const fault of FAULTS) {
      expect(reference.stdout()).toMatch(new RegExp(`^${fault.name} +${fault.requirements.join(', ')}`, 'm'));
      expect(reference.stdout()).toContain(fault.description);
      if (fault.readings)
        expect(reference.stdout()).toMatch(new RegExp(`^${fault.name} +.*readings ${fault.readings.join(' and ')}\\)$`, 'm'));
    }
  } finally {
    reference.stop();
  }
});

test('--fault NAME starts the reference with that fault, and says so', async ({ request }) => {
  const reference = startReference(['--port', '0', '--calls', '200', '--fault', 'status-outside-enum']);
  try {
    const line = await reference.waitForLine(/listening on \S+ with the fault status-outside-enum$/, 20_000);
    const base = line.split(' ')[4]!;
    const answer = await sendRaw(request, `${base}/calls?status=unanswered`, { headers: { apikey: DEMO_KEYS.fullAccess } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.length).toBeGreaterThan(0);
    expect(new Set(answer.body.data.map((call: { status: string }) => call.status))).toEqual(new Set(['missed']));
  } finally {
    reference.stop();
  }
});

test("--fault NAME of a fault that runs under the deployment's readings only starts under them, unless --readings says otherwise", async () => {
  const name = 'participants-count-mixes-readings';
  const underItsReadings = startReference(['--port', '0', '--calls', '20', '--fault', name]);
  const underOthers = startReference(['--port', '0', '--calls', '20', '--fault', name, '--readings', 'entries']);
  try {
    await underItsReadings.waitForLine(
      new RegExp(`^reference server listening on http:\\S+ with the deployment's readings and the fault ${name}$`),
      20_000,
    );
    await underOthers.waitForLine(new RegExp(`^reference server listening on http:\\S+ with the fault ${name}$`), 20_000);
  } finally {
    underItsReadings.stop();
    underOthers.stop();
  }
});

test('--fault with an unknown name stops with exit code 2 and one line naming it', async () => {
  const reference = startReference(['--port', '0', '--fault', 'no-such-fault']);
  try {
    expect(await reference.waitForExit(20_000)).toEqual({ code: 2, signal: null });
    expect(reference.stderr().trim().split('\n')).toEqual([expect.stringContaining('--fault: no fault named "no-such-fault"')]);
  } finally {
    reference.stop();
  }
});

test('the server factory takes a fault, and a stateful fault keeps its state per server', async ({ request }) => {
  const views = findFault('get-counts-views')!;
  const servers = [
    createServer({ seed: 1, calls: 20, fault: views }),
    createServer({ seed: 1, calls: 20, fault: views }),
    createServer({ seed: 1, calls: 20 }),
  ];
  try {
    const [first, second, clean] = await Promise.all(servers.map((server) => server.listen(0)));
    const id = servers[0]!.store.data.rows[0]!.sessionId;
    const metaData = async (base: string) =>
      (await sendRaw(request, `${base}/calls/${encodeURIComponent(id)}`, { headers: { apikey: DEMO_KEYS.fullAccess } })).body.data.metaData;
    expect(await metaData(first!)).toEqual([{ views: 1 }]);
    expect(await metaData(first!)).toEqual([{ views: 2 }]);
    expect(await metaData(second!)).toEqual([{ views: 1 }]);
    expect(await metaData(clean!)).toEqual([]);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});

test("docs/faults.md's table of which faults prove which requirement matches the catalogs (regenerate: npx tsx tests/faults/coverage-doc.ts --write)", () => {
  expect(documentedCoverage()).toBe(faultCoverageSection());
});
