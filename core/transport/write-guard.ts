// Do no harm: mark-unread is the interface's only write, and a remote target is someone's data. The
// HTTP layer itself refuses any request that is not a read unless ALLOW_WRITES=true, and then sends
// it only to the conversation of the group the configuration names (GROUP_GUID). The embedded
// reference is the suite's own, so every write the tests need goes there unless ALLOW_WRITES=false.
import type { SuiteConfig } from '../run/config.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why this request must not be sent, or undefined when it may. */
export function refusedWrite(config: SuiteConfig, method: string, url: string): string | undefined {
  if (READS.has(method.toUpperCase())) return undefined;
  if (!config.allowWrites) return `${method} ${withoutQuery(url)} is a write, and ALLOW_WRITES is not true.`;
  if (!writesOnlyToFixture(config)) return undefined;
  const allowed = fixtureWriteUrl(config);
  if (allowed !== undefined && method.toUpperCase() === 'DELETE' && url === allowed) return undefined;
  return `${method} ${withoutQuery(url)} is a write to a remote target outside the configured fixture; writes go only to ${allowed ?? 'the GROUP_GUID conversation (not configured)'}.`;
}

/** Against a remote target a write may go only to the configured group; tests leave out writes elsewhere. */
export function writesOnlyToFixture(config: SuiteConfig): boolean {
  return config.target.kind === 'remote';
}

function fixtureWriteUrl(config: SuiteConfig): string | undefined {
  if (config.unread === undefined || config.chatBaseUrl === undefined) return undefined;
  return `${config.chatBaseUrl}/groups/${encodeURIComponent(config.unread.groupGuid)}/conversation/read`;
}

const withoutQuery = (url: string) => url.split('?')[0];
