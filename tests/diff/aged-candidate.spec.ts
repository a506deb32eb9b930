// A clean candidate answering Get Call from a read replica five seconds behind, beside a fresh primary,
// both over one living store (reference/two-doors.ts, a new call a second): the whole diff, as the
// command asks and judges it. Calls logged just before learning are not yet on the replica, so the
// plan asks Get Call only for calls still for longer than MAX_ANSWER_AGE (read-plan.ts), as the
// suite's own tests do; and an ongoing call's Get Call is compared as a listed one, on the fields it
// carries, not on minutes that grew between the asks (answer-differences.ts). Before, seed 2 or 6
// showed the candidate's 404 for a new call as a regression of AUTH-HEADER-NAME-CASE-INSENSITIVE or
// AUTH-APIKEY-HEADER, and its older minutes as behaviour changes.
import { test, expect } from '@playwright/test';
import { openTwoDoors } from '../../reference/two-doors.ts';
import { loadDiffConfig } from '../../core/run/config.ts';
import type { Wire } from '../../core/transport/wire.ts';
import { Pacer } from '../../core/transport/rate-limit.ts';
import { askBothSides, diffSide } from '../../core/diff/run-diff.ts';
import { breakableRequirements, judgeDiff } from '../../core/diff/diff-outcome.ts';
import { loadContract } from '../../openapi/contract.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { indexSchemaRequirements } from '../../core/checks/schema-requirements.ts';

const PRIMARY_KEYS = { fullAccess: 'primary-aged-full-key-2e6b', readOnly: 'primary-aged-readonly-key-9c1a' };
const CANDIDATE_KEYS = { fullAccess: 'candidate-aged-full-key-74f0', readOnly: 'candidate-aged-readonly-key-d35e' };

for (const seed of [2, 6]) {
  test(`seed ${seed}: a clean candidate whose Get Call answers from a replica 5 s behind, on a living store, differs in nothing`, async () => {
    const doors = await openTwoDoors(
      { calls: 1000, keys: PRIMARY_KEYS, live: { rate: 1 } },
      { keys: CANDIDATE_KEYS, answerAge: { get: { mode: 'replica', seconds: 5 } } },
    );
    const wires: Wire[] = [];
    try {
      const config = loadDiffConfig({
        CALLS_BASE_URL: doors.primary,
        CHAT_BASE_URL: doors.primary,
        API_KEY: PRIMARY_KEYS.fullAccess,
        RESTRICTED_API_KEY: PRIMARY_KEYS.readOnly,
        CANDIDATE_CALLS_BASE_URL: doors.candidate,
        CANDIDATE_CHAT_BASE_URL: doors.candidate,
        CANDIDATE_API_KEY: CANDIDATE_KEYS.fullAccess,
        CANDIDATE_RESTRICTED_API_KEY: CANDIDATE_KEYS.readOnly,
        CONFORMANCE_SEED: String(seed),
      });
      const pacer = new Pacer(config.primary.maxRps);
      const sides = { primary: diffSide(config.primary, pacer, wires), candidate: diffSide(config.candidate, pacer, wires) };
      const asked = await askBothSides(sides, config.primary.seed, config.primary.runs, config.diff.minComparisons);
      const [contract, catalog] = [loadContract(), loadCatalog()];
      const outcome = judgeDiff(asked, {
        contract,
        schemaRequirements: indexSchemaRequirements(catalog, contract.document),
        breakable: breakableRequirements(catalog, config.primary.profile),
        settings: config.diff,
        movement: { settleSeconds: config.primary.settleSeconds, answerAgeSeconds: config.primary.maxAnswerAgeSeconds },
      });
      const found = outcome.findings.map(
        ({ verdict, operation, path, kind, because }) => `${verdict} ${operation} ${path} ${kind} ${because.join(',')}`,
      );
      expect(found).toEqual([]);
      expect(outcome.exitCode).toBe(0);
    } finally {
      await Promise.all(wires.map((wire) => wire.close()));
      await doors.close();
    }
  });
}
