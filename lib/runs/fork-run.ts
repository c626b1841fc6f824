// Fork: the same configuration, run again as the viewer (their own tokens), linked to
// the original. Anyone who may see a run may fork it. A manual run's fork replays the
// code each of its turns ran (scripted), instead of waiting for someone to type it again.
// Which versions it runs is the forker's choice (ForkVersions): the original's pins (the
// default, so the fork reproduces it even after newer versions are published), the
// latest of every skill, or one skill moved to a chosen version and the rest as pinned.
import 'server-only';
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';
import { parseSkillRef, canSeePrivate } from '../registry';
import { createRun } from './create-run';
import { getRun, type RunAccess } from './get-run';
import { listRunEvents } from './list-run-events';
import { scriptFromTrace } from './manual-script';
import { readRunPins } from './run-pins';

export const ForkVersionsSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('same') }).strict(),
  z.object({ mode: z.literal('latest') }).strict(),
  z
    .object({
      mode: z.literal('move'),
      skill: z.string().max(200),
      version: z.string().regex(/^[0-9A-Za-z.+-]{1,64}$/, 'a version like 1.2.3'),
    })
    .strict(),
]);
export type ForkVersions = z.infer<typeof ForkVersionsSchema>;

async function manualTurns(db: Db, runId: string) {
  const events = [];
  for (let after = 0; ;) {
    const page = await listRunEvents(db, runId, after);
    events.push(...page);
    if (page.length < 1000) break;
    after = page[page.length - 1].seq;
  }
  return scriptFromTrace(events);
}

const bare = (text: string) => {
  const r = parseSkillRef(text);
  return `@${r.scope}/${r.name}`;
};

/** The fork's skill refs and the versions to pin them to, for the chosen mode. */
async function forkVersions(db: Db, skills: string[], pinned: Record<string, string>, choice: ForkVersions, userId: string | null) {
  if (choice.mode === 'same') return { skills, pinVersions: pinned };
  // the latest of every skill: refs lose their versions, nothing is pinned ahead
  if (choice.mode === 'latest') return { skills: skills.map(bare), pinVersions: {} };
  const moved = bare(choice.skill);
  if (!skills.some((s) => bare(s) === moved)) {
    throw new AppError('run/fork-version', `The run does not use ${moved}; only its own skills can be moved.`);
  }
  const [scope, name] = moved.slice(1).split('/');
  const exists = await db.skillVersion.findFirst({
    where: { version: choice.version, skill: { scopeName: scope, name } },
    select: { skill: { select: { visibility: true } } },
  });
  const visible = exists && (exists.skill.visibility !== 'private' || (await canSeePrivate(db, scope, userId ? { userId } : null)));
  if (!visible) throw new AppError('run/fork-version', `${moved}@${choice.version} does not exist.`);
  return {
    skills: skills.map((s) => (bare(s) === moved ? `${moved}@${choice.version}` : s)),
    pinVersions: { ...pinned, [moved]: choice.version },
  };
}

export async function forkRun(db: Db, id: string, access: RunAccess, overrides: { task?: string; versions?: ForkVersions } = {}, principal?: string) {
  const original = await getRun(db, id, access);
  const replay = original.config.provider === 'manual' ? (await manualTurns(db, original.id)).slice(0, 200) : [];
  const pins = readRunPins(original.pins);
  const pinned = Object.fromEntries((pins?.skills ?? []).map((p) => [p.ref, p.version]));
  const chosen = await forkVersions(db, original.config.skills, pinned, overrides.versions ?? { mode: 'same' }, access.userId);
  return createRun(db, {
    config: {
      ...original.config,
      skills: chosen.skills,
      ...(replay.length ? { provider: 'scripted' as const, model: null, script: replay } : {}),
      ...(overrides.task ? { task: overrides.task } : {}),
      visibility: access.userId ? original.config.visibility : 'unlisted',
    },
    userId: access.userId,
    principal,
    forkedFromId: original.id,
    pinVersions: chosen.pinVersions,
  });
}
