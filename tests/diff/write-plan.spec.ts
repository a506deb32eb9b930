// Mark-unread's plan in a diff with writes allowed: the suite's chat-unread cases, each side on its own
// fixture and never another group, the restricted key only where every side has one, and at least
// DIFF_MIN_COMPARISONS requests, so that the operation can be judged under the rule the reads keep.
import { test, expect } from '@playwright/test';
import { markRequestOf, UNKNOWN_MESSAGE_ID, writePlan, writePlanBound, writesAllowed } from '../../core/diff/write-plan.ts';

const fixture = { groupGuid: 'group-of-the-candidate', messageId: 41, actingUid: 'member-of-it' };

test('every case once, the mark repeated at least once, and at least DIFF_MIN_COMPARISONS requests, within the dry run’s bound', () => {
  for (const min of [1, 10, 25]) {
    const plan = writePlan(7, true, min);
    expect(plan.length).toBeGreaterThanOrEqual(min);
    expect(plan.length).toBeLessThanOrEqual(writePlanBound(min));
    expect(plan.filter(({ kind }) => kind === 'mark-repeated').length).toBeGreaterThanOrEqual(1);
    expect(plan.every(({ operation, mark }) => operation === 'markGroupConversationAsUnread' && mark !== undefined)).toBe(true);
  }
  expect(writePlan(7, true, 25)).toHaveLength(25);
  const kinds = new Set(writePlan(7, true, 10).map(({ kind, key }) => `${kind} ${key}`));
  for (const kind of [
    'mark full',
    'auth none',
    'auth unknown',
    'auth extended',
    'header-case full',
    'full-access restricted',
    'bad-input full',
  ])
    expect(kinds.has(kind), kind).toBe(true);
  // The restricted key only where every side has one; the header's case drawn under the seed, never the usual one.
  expect(writePlan(7, false, 10).some(({ key }) => key === 'restricted')).toBe(false);
  const header = (seed: number) => writePlan(seed, false, 1).find(({ kind }) => kind === 'header-case')!.apiKeyHeader;
  expect(header(7)).toBe(header(7));
  expect(header(7)).not.toBe('apikey');
  expect(header(7)!.toLowerCase()).toBe('apikey');
});

test("each request goes to the side's own group, with its message or a mistake, on behalf of its member unless asked without", () => {
  const sent = writePlan(3, true, 10).map(({ mark }) => markRequestOf(mark!, fixture));
  expect(new Set(sent.map(({ guid }) => guid))).toEqual(new Set([fixture.groupGuid]));
  const bodies = sent.map(({ body }) => JSON.stringify(body));
  expect(bodies).toContain(JSON.stringify({ messageId: 41 }));
  expect(bodies).toContain(JSON.stringify({ messageId: UNKNOWN_MESSAGE_ID }));
  expect(bodies).toContain(JSON.stringify('not json{'));
  expect(sent.filter(({ onBehalfOf }) => onBehalfOf === undefined)).toHaveLength(1);
  expect(sent.filter(({ onBehalfOf }) => onBehalfOf === 'member-of-it').length).toBe(sent.length - 1);
});

test('writes are allowed only where every side allows them and names its fixture', () => {
  expect(
    writesAllowed([
      { allowWrites: true, unread: fixture },
      { allowWrites: true, unread: fixture },
    ]),
  ).toBe(true);
  expect(
    writesAllowed([
      { allowWrites: true, unread: fixture },
      { allowWrites: true, unread: undefined },
    ]),
  ).toBe(false);
  expect(
    writesAllowed([
      { allowWrites: false, unread: fixture },
      { allowWrites: true, unread: fixture },
    ]),
  ).toBe(false);
});
