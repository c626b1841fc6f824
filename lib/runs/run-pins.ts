// What a run used, exactly: each skill's version (by id) with its package digests and a
// digest of every tool's schema, the provider, model, allowed tools, limits and the code
// of each turn. Resolved once when the run is created and stored with it, so the worker
// executes those versions (execute-run.ts), never whatever is latest when it starts, and
// a fork can run them again after newer versions are published (fork-run.ts).
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { canSeePrivate, parseSkillRef } from '../registry';
import type { RunConfig, ScriptTurn } from './run-config';

export type PinnedTool = { name: string; schemaDigest: string };

export type PinnedSkill = {
  /** `@scope/name`, without a version */
  ref: string;
  skillId: string;
  version: string;
  versionId: string;
  /** the stored files' digest, and the tarball's npm-style integrity when it has one */
  contentHash: string;
  integrity: string | null;
  tools: PinnedTool[];
};

export type RunPins = {
  skills: PinnedSkill[];
  provider: RunConfig['provider'];
  model: string | null;
  allowedTools: string | null;
  limits: { maxTurns: number; maxSteps: number };
  /** the code of every turn: a scripted run's script; a manual run's turns once it ended */
  turns: ScriptTurn[] | null;
  pinnedAt: string;
};

/** JSON with object keys sorted, so equal schemas hash equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const schemaDigest = (toolManifest: unknown) => `sha256-${crypto.createHash('sha256').update(canonicalJson(toolManifest)).digest('base64')}`;

const label = (ref: { scope: string; name: string }) => `@${ref.scope}/${ref.name}`;

/**
 * Pins each of `config.skills` for `userId`: the version in `versions` (by `@scope/name`),
 * else the ref's own version, else the latest. A skill the user may not see, or a version
 * that does not exist, is left unpinned: the run then fails on it like one of a missing
 * skill (run-team.ts), and the answer here reveals nothing either way.
 */
export async function resolveRunPins(
  db: Db,
  config: RunConfig,
  userId: string | null,
  versions: Record<string, string> = {},
  model: string | null = config.model ?? null,
): Promise<RunPins> {
  const viewer = userId ? { userId } : null;
  const skills: PinnedSkill[] = [];
  for (const text of config.skills) {
    const ref = parseSkillRef(text);
    const wanted = versions[label(ref)] ?? ref.version;
    const skill = await db.skill.findUnique({
      where: { scopeName_name: { scopeName: ref.scope, name: ref.name } },
      select: { id: true, visibility: true, latestVersionId: true },
    });
    if (!skill || (skill.visibility === 'private' && !(await canSeePrivate(db, ref.scope, viewer)))) continue;
    const version = await db.skillVersion.findFirst({
      where: wanted ? { skillId: skill.id, version: wanted } : { id: skill.latestVersionId ?? '' },
      select: { id: true, version: true, contentHash: true, integrity: true, tools: { select: { name: true, manifest: true }, orderBy: { name: 'asc' } } },
    });
    if (!version) continue;
    skills.push({
      ref: label(ref),
      skillId: skill.id,
      version: version.version,
      versionId: version.id,
      contentHash: version.contentHash,
      integrity: version.integrity,
      tools: version.tools.map((t) => ({ name: t.name, schemaDigest: schemaDigest(t.manifest) })),
    });
  }
  return {
    skills,
    provider: config.provider,
    model,
    allowedTools: config.allowedTools ?? null,
    limits: { maxTurns: config.maxTurns, maxSteps: config.maxSteps },
    turns: config.provider === 'scripted' ? (config.script ?? null) : null,
    pinnedAt: new Date().toISOString(),
  };
}

/** The pin of a skill ref (`@scope/name` or `@scope/name@1.0.0`), if the run has one. */
export function pinFor(pins: RunPins | null | undefined, text: string): PinnedSkill | undefined {
  if (!pins) return undefined;
  const ref = parseSkillRef(text);
  return pins.skills.find((p) => p.ref === label(ref));
}

/** Reads stored pins defensively: runs made before pins existed have none. */
export function readRunPins(value: unknown): RunPins | null {
  if (!value || typeof value !== 'object' || !Array.isArray((value as RunPins).skills)) return null;
  return value as RunPins;
}
