// A skill row as a viewer may see it: a private skill is indistinguishable from a
// missing one to anyone who is not its owner or in its team.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { canSeePrivate, type Viewer } from './get-skill';

export type VisibleSkill = { id: string; scopeName: string; name: string; visibility: 'public' | 'unlisted' | 'private'; latestVersionId: string | null };

export async function findVisibleSkill(db: Db, ref: { scope: string; name: string }, viewer: Viewer): Promise<VisibleSkill> {
  const skill = await db.skill.findUnique({
    where: { scopeName_name: { scopeName: ref.scope, name: ref.name } },
    select: { id: true, scopeName: true, name: true, visibility: true, latestVersionId: true },
  });
  if (!skill || (skill.visibility === 'private' && !(await canSeePrivate(db, ref.scope, viewer)))) {
    throw new AppError('skill/not-found', `@${ref.scope}/${ref.name} was not found.`);
  }
  return skill;
}
