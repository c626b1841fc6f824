// Fork: the same configuration, run again as the viewer (their own tokens), linked to
// the original. Anyone who may see a run may fork it.
import 'server-only';
import type { Db } from '../db/client';
import { createRun } from './create-run';
import { getRun, type RunAccess } from './get-run';

export async function forkRun(db: Db, id: string, access: RunAccess, overrides: { task?: string } = {}, principal?: string) {
  const original = await getRun(db, id, access);
  return createRun(db, {
    config: { ...original.config, ...(overrides.task ? { task: overrides.task } : {}), visibility: access.userId ? original.config.visibility : 'unlisted' },
    userId: access.userId,
    principal,
    forkedFromId: original.id,
  });
}
