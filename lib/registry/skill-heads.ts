// The skill row (id, visibility, latest version) a call starts from, per skill and per
// tool name, kept for HEAD_TTL_MS: a tight loop of calls (the invoke API, an MCP
// session's tools/call) reads it once a second instead of once a call. The version it
// names is cached by id (load-skill-version.ts), so a call usually needs no database round
// trip at all. A publish, visibility change or yank is seen by every instance within
// HEAD_TTL_MS (docs/security.md). Not-found and failures are not cached.
import 'server-only';
import type { Db } from '../db';
import type { SkillHead } from './load-skill-version';

const HEAD_TTL_MS = 1_000;
let headTtlMs = HEAD_TTL_MS;
const MAX_HEADS = 1_000;

export type FoundHead = { ref: string; head: SkillHead };

const heads = new Map<string, { until: number; value: Promise<FoundHead | null> }>();

export function cachedHead(key: string, read: () => Promise<FoundHead | null>): Promise<FoundHead | null> {
  const now = Date.now();
  const hit = heads.get(key);
  if (hit && hit.until > now) return hit.value;
  if (heads.size >= MAX_HEADS) heads.clear();
  const value = read();
  heads.set(key, { until: now + headTtlMs, value });
  // failures and not-found are asked again next time
  value.then(
    (v) => v === null && heads.get(key)?.value === value && heads.delete(key),
    () => heads.get(key)?.value === value && heads.delete(key),
  );
  return value;
}

/** Only for tests: forget the cached skill rows (and keep new ones `ttlMs`, default 1 s). */
export function forgetCachedSkillHeads(ttlMs = HEAD_TTL_MS): void {
  heads.clear();
  headTtlMs = ttlMs;
}

async function readHead(db: Db, ref: { scope: string; name: string }): Promise<FoundHead | null> {
  const head = await db.skill.findUnique({
    where: { scopeName_name: { scopeName: ref.scope, name: ref.name } },
    select: { id: true, visibility: true, latestVersionId: true },
  });
  return head && { ref: `@${ref.scope}/${ref.name}`, head };
}

/** `@scope/name`'s row, at most HEAD_TTL_MS old; null when there is no such skill. */
export function skillHead(db: Db, ref: { scope: string; name: string }): Promise<FoundHead | null> {
  return cachedHead(`skill:${ref.scope}/${ref.name}`, () => readHead(db, ref));
}
