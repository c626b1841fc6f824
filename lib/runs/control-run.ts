// Cancel a run, or hand a manual run its next turn. Both are stored first (the run's
// `cancelRequested`, a RunTurn row) and then announced by id only: the worker running
// the run, on whichever instance, reads them on the notice or, if that is missed, with
// its heartbeat (cancel) or its turn poll (turns).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { requireRunControl, type RunAccess } from './get-run';
import { runEventBus } from './run-event-bus';
import { ScriptTurnSchema } from './run-config';
import { storeRunTurn } from './run-turns';

export async function cancelRun(db: Db, id: string, access: RunAccess): Promise<void> {
  const run = await requireRunControl(db, id, access);
  if (run.status === 'succeeded' || run.status === 'failed' || run.status === 'cancelled') return;
  // a queued run is cancelled here; a running one by its worker, which records the end
  const { count } = await db.run.updateMany({
    where: { id, status: 'queued' },
    data: { status: 'cancelled', cancelRequested: true, finishedAt: new Date() },
  });
  if (count === 0) await db.run.update({ where: { id }, data: { cancelRequested: true } });
  runEventBus().sendControl(id, { kind: 'cancel' });
}

export async function submitManualTurn(db: Db, id: string, access: RunAccess, turn: unknown): Promise<void> {
  const run = await requireRunControl(db, id, access);
  if (run.config.provider !== 'manual') throw new AppError('run/not-manual', 'Only manual runs take turns from a person.');
  if (run.status !== 'running') throw new AppError('run/not-running', `The run is ${run.status}.`);
  const parsed = turn === null ? null : ScriptTurnSchema.parse(turn);
  await storeRunTurn(db, id, parsed);
  runEventBus().sendControl(id, { kind: 'turn' });
}
