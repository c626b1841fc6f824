// Usage you can trust, beside downloads: how many runs used a skill in the last 30 days
// (RunSkill, written with each run) and what share of its calls failed, from runs and
// MCP calls on this registry. Calls are noted per caller and day (SkillCallDay, the caller
// an HMAC of its key), and the failure share is each caller's own share averaged over
// callers: one caller hammering a tool (or failing on purpose) counts as one caller.
// Off the hot path like download counts (count-download.ts): calls are noted in memory
// and written in batches, one statement in flight per process.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { deriveKey } from '../auth';
import { log, serializeError } from '../log';

export type SkillCallNote = { skillId: string; callerKey: string; source: 'run' | 'mcp'; calls: number; failed: number };
export type SkillUsage = { runs: number; callers: number; calls: number; failureShare: number | null; days: number };

export const USAGE_DAYS = 30;
const MAX_PENDING = 50_000;

type Pending = { skillId: string; day: string; caller: string; source: string; calls: number; failed: number };
const pending = new Map<string, Pending>();
let scheduled = false;
let flushing: Promise<void> | null = null;
let target: Db | null = null;

let hmacKey: Buffer | null = null;
const callerHash = (key: string) =>
  crypto
    .createHmac('sha256', (hmacKey ??= deriveKey('skill-caller')))
    .update(key)
    .digest('base64url')
    .slice(0, 22);

/** Notes calls of a skill's tools by a caller (its principal key, lib/principal: `user:<id>` or `anon:<hash>`). */
export function noteSkillCalls(db: Db, note: SkillCallNote, now = new Date()): void {
  if (note.calls <= 0) return;
  const day = now.toISOString().slice(0, 10);
  const caller = callerHash(note.callerKey);
  const id = `${note.skillId}|${day}|${caller}|${note.source}`;
  const seen = pending.get(id);
  if (seen) {
    seen.calls += note.calls;
    seen.failed += note.failed;
  } else {
    if (pending.size >= MAX_PENDING) return;
    pending.set(id, { skillId: note.skillId, day, caller, source: note.source, calls: note.calls, failed: note.failed });
  }
  target = db;
  if (scheduled || flushing) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    void flushSkillCalls();
  });
}

/** Writes the noted calls now (tests); resolves once they are stored. */
export async function flushSkillCalls(): Promise<void> {
  while (flushing) await flushing;
  if (pending.size === 0 || !target) return;
  const batch = [...pending.values()];
  pending.clear();
  const db = target;
  flushing = db.$executeRaw`
      INSERT INTO "SkillCallDay" ("skillId", day, caller, source, calls, failed)
      SELECT * FROM unnest(${batch.map((b) => b.skillId)}::text[], ${batch.map((b) => b.day)}::date[], ${batch.map((b) => b.caller)}::text[],
                           ${batch.map((b) => b.source)}::text[], ${batch.map((b) => b.calls)}::int[], ${batch.map((b) => b.failed)}::int[])
      ON CONFLICT ("skillId", day, caller, source) DO UPDATE SET calls = "SkillCallDay".calls + EXCLUDED.calls, failed = "SkillCallDay".failed + EXCLUDED.failed`
    .then(() => undefined)
    .catch((err: unknown) => log.error('skill call counts not written', { component: 'usage', err: serializeError(err), notes: batch.length }))
    .finally(() => {
      flushing = null;
      if (pending.size > 0) void flushSkillCalls();
    });
  await flushing;
}

/** The skill's runs, callers and failure share over the last USAGE_DAYS days. */
export async function skillUsage(db: Db, skillId: string, now = new Date()): Promise<SkillUsage> {
  const since = new Date(now.getTime() - USAGE_DAYS * 86_400_000);
  const runs = await db.runSkill.count({ where: { skillId, createdAt: { gte: since } } });
  // per caller over the window (a caller's sources and days summed), then averaged over callers
  const [row] = await db.$queryRaw<Array<{ callers: number; calls: number; share: number | null }>>`
    SELECT count(*)::int AS callers, COALESCE(sum(calls), 0)::int AS calls, avg(failed::float8 / calls)::float8 AS share
    FROM (SELECT caller, sum(calls) AS calls, sum(failed) AS failed FROM "SkillCallDay"
          WHERE "skillId" = ${skillId} AND day >= ${since.toISOString().slice(0, 10)}::date GROUP BY caller HAVING sum(calls) > 0) per_caller`;
  return { runs, callers: row?.callers ?? 0, calls: row?.calls ?? 0, failureShare: row?.share ?? null, days: USAGE_DAYS };
}

/** Which of `skills` a tool reference names: `tool`, `skill/tool` or `@scope/skill/tool`. */
export function skillOfTool<T extends { manifest: { name: string; tools: Array<{ name: string }> } }>(skills: T[], ref: string): T | undefined {
  const parts = ref.split('/');
  const tool = parts[parts.length - 1];
  const skillName = parts.length > 1 ? parts[parts.length - 2] : null;
  const matches = skills.filter((s) => (skillName === null || s.manifest.name === skillName) && s.manifest.tools.some((t) => t.name === tool));
  return matches.length === 1 ? matches[0] : undefined;
}

/** skillUsage of `@scope/name` (the caller has already checked the viewer may see it). */
export async function skillUsageOf(db: Db, ref: { scope: string; name: string }): Promise<SkillUsage | null> {
  const skill = await db.skill.findUnique({ where: { scopeName_name: { scopeName: ref.scope, name: ref.name } }, select: { id: true } });
  return skill ? skillUsage(db, skill.id) : null;
}
