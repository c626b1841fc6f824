// A run and who may do what with it: anyone with the link sees a public or unlisted run;
// a private one only its owner, and a private team run (lib/teams/run-team.ts) the team's
// current members only (its creator too loses it on leaving the team), and of those only
// who may see every private skill the run names (defence in depth: run-team.ts never tags
// such a run with a team, but a skill can change owner or visibility). Control (cancel,
// manual turns) needs ownership or the run's control token.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { RunConfig } from './run-config';
import { hashControlToken } from './create-run';
import { runRemovedAt } from './apply-run-retention';
import { maySeeRunSkills, maySeeTeamRun } from '../teams';
import { isRunId } from './run-id';
import { readRunPins, type RunPins } from './run-pins';

export type RunView = {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  visibility: 'public' | 'unlisted' | 'private';
  config: RunConfig;
  result: unknown;
  error: { code: string; message: string } | null;
  forkedFromId: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  eventCount: number;
  /** when retention removed the run's events (the summary stays), null while they are kept */
  traceRemovedAt: Date | null;
  /** what the run used (run-pins.ts), null for runs made before pins */
  pins: RunPins | null;
};

export type RunAccess = { userId: string | null; controlToken?: string | null };

async function findRun(db: Db, id: string) {
  if (!isRunId(id)) return null;
  return db.run.findUnique({ where: { id }, include: { _count: { select: { events: true } } } });
}

export async function getRun(db: Db, id: string, access: RunAccess): Promise<RunView & { canControl: boolean }> {
  const run = await findRun(db, id);
  const notFound = new AppError('run/not-found', 'No such run.');
  if (!run) {
    const removedAt = await runRemovedAt(db, id);
    if (removedAt)
      throw new AppError('run/removed', `This run was removed on ${removedAt.toISOString().slice(0, 10)} under this registry's retention policy.`, {
        details: { removedAt: removedAt.toISOString() },
      });
    throw notFound;
  }
  const member =
    run.teamId !== null && run.visibility === 'private'
      ? (await maySeeTeamRun(db, run.teamId, access.userId)) && (await maySeeRunSkills(db, (run.config as { skills?: unknown } | null)?.skills, access.userId))
      : null;
  const owner = run.userId !== null && run.userId === access.userId && member !== false;
  if (run.visibility === 'private' && !owner && !member) throw notFound;
  const canControl = owner || (!!access.controlToken && !!run.controlHash && hashControlToken(access.controlToken) === run.controlHash);
  return {
    id: run.id,
    status: run.status,
    visibility: run.visibility,
    config: run.config as unknown as RunConfig,
    result: run.result,
    error: run.error as RunView['error'],
    // the original's id is its share link: a fork's link handed on must not hand on the
    // original too, so only who owns or controls the fork (its creator, a team member) sees it
    forkedFromId: owner || member || canControl ? run.forkedFromId : null,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    eventCount: run._count.events,
    traceRemovedAt: run.traceRemovedAt,
    pins: readRunPins(run.pins),
    canControl,
  };
}

export async function requireRunControl(db: Db, id: string, access: RunAccess): Promise<RunView> {
  const run = await getRun(db, id, access);
  if (!run.canControl) throw new AppError('auth/forbidden', 'Only the creator of this run can control it.');
  return run;
}
