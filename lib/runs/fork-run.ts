// Fork: the same configuration, run again as the viewer (their own tokens), linked to
// the original. Anyone who may see a run may fork it. A manual run's fork replays the
// code each of its turns ran (scripted), instead of waiting for someone to type it again.
import 'server-only';
import type { Db } from '../db/client';
import { createRun } from './create-run';
import { getRun, type RunAccess } from './get-run';
import { listRunEvents } from './list-run-events';
import { scriptFromTrace } from './manual-script';

async function manualTurns(db: Db, runId: string) {
  const events = [];
  for (let after = 0; ; ) {
    const page = await listRunEvents(db, runId, after);
    events.push(...page);
    if (page.length < 1000) break;
    after = page[page.length - 1].seq;
  }
  return scriptFromTrace(events);
}

export async function forkRun(db: Db, id: string, access: RunAccess, overrides: { task?: string } = {}, principal?: string) {
  const original = await getRun(db, id, access);
  const replay = original.config.provider === 'manual' ? (await manualTurns(db, original.id)).slice(0, 200) : [];
  return createRun(db, {
    config: {
      ...original.config,
      ...(replay.length ? { provider: 'scripted' as const, model: null, script: replay } : {}),
      ...(overrides.task ? { task: overrides.task } : {}),
      visibility: access.userId ? original.config.visibility : 'unlisted',
    },
    userId: access.userId,
    principal,
    forkedFromId: original.id,
  });
}
