// The conformance project as Playwright sees it: the strict profile passes against the embedded
// reference, and every test traces to the catalog. (The default run, its exit code and its reports
// are checked in tests/reports/embedded-run.spec.ts.)
import { test, expect } from '@playwright/test';
import { runSuite, specsOf } from './run-suite.ts';
import { isTestable, loadCatalog } from '../../openapi/catalog.ts';

const catalog = loadCatalog();

test('the strict profile passes against the embedded reference, which follows the deployed conventions', async () => {
  const run = await runSuite(['--project=conformance', '--reporter=json'], { CONFORMANCE_PROFILE: 'strict' });

  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout).stats.unexpected).toBe(0);
});

test('every conformance test title starts with a catalogued requirement id that it also carries as tag and annotation', async () => {
  const run = await runSuite(['--project=conformance', '--list', '--reporter=json']);
  expect(run.code, run.stderr).toBe(0);
  const specs = specsOf(JSON.parse(run.stdout));
  expect(specs.length).toBeGreaterThan(0);
  const titles = new Set<string>();
  for (const spec of specs) {
    const id = spec.title.split(' ')[0]!;
    expect(spec.title, 'requirement id first').toMatch(/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+ /);
    expect(catalog.byId.has(id), `${id} is not in the catalog`).toBe(true);
    expect(spec.tags, spec.title).toContain(id);
    expect(spec.tests[0]?.annotations, spec.title).toContainEqual(expect.objectContaining({ type: 'requirement', description: id }));
    expect(titles.has(spec.title), `duplicate title: ${spec.title}`).toBe(false);
    titles.add(spec.title);
  }
});

test('every requirement the interface can observe has a test, and none that cannot has one', async () => {
  const run = await runSuite(['--project=conformance', '--list', '--reporter=json']);
  expect(run.code, run.stderr).toBe(0);
  const tested = new Set(
    specsOf(JSON.parse(run.stdout)).flatMap(
      (spec) => spec.tests[0]?.annotations.filter((a) => a.type === 'requirement').map((a) => a.description) ?? [],
    ),
  );

  const untested = catalog.requirements.filter((entry) => isTestable(entry) && !tested.has(entry.id)).map((entry) => entry.id);
  const testedButNotTestable = catalog.requirements.filter((entry) => !isTestable(entry) && tested.has(entry.id)).map((entry) => entry.id);
  expect(untested, 'requirements without a test (write one, or mark them testable: false with the reason)').toEqual([]);
  expect(testedButNotTestable, 'requirements marked not testable that have tests').toEqual([]);
});
