// Stores a new run and wakes a worker. The creator gets a control token (shown once)
// that lets them cancel it and, in manual mode, write its turns, even without an account.
// A principal (its key: lib/principal accountKey) may hold only so many queued or running runs at once.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { RunConfigSchema, type RunConfigInput } from './run-config';
import { runEventBus } from './run-event-bus';
import { parseSkillRef } from '../registry';
import { AppError } from '../errors';
import { availableProviders, modelConfig } from './server-providers';
import { resolveRunPins } from './run-pins';
import { assertModelAccess } from '../auth';
import { runLimits } from './run-limits';
import { ANONYMOUS_KEY_PREFIX, anonymousKey, isAnonymousKey, userKey } from '../principal';
import { assertJsonDepth } from './storable-json';
import { RunError } from './run-errors';
import { runTeamFor } from '../teams';
import { newRunId } from './run-id';

export const hashControlToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export async function createRun(
  db: Db,
  input: {
    config: RunConfigInput | Record<string, unknown>;
    userId: string | null;
    /** the run's key, `accountKey` of lib/principal (a team token's runs count against the person who made it); defaults to the user, or one shared anonymous principal */
    principal?: string;
    forkedFromId?: string | null;
    /** versions to pin by `@scope/name` (a fork's choice, fork-run.ts); others: the ref's own version, else the latest */
    pinVersions?: Record<string, string>;
  },
): Promise<{ id: string; controlToken: string }> {
  try {
    assertJsonDepth(input.config, 'the run configuration');
  } catch (err) {
    if (err instanceof RunError) throw new AppError('input/too-deep', err.message);
    throw err;
  }
  const config = RunConfigSchema.parse(input.config);
  config.skills.forEach(parseSkillRef); // a clear error for a malformed ref before anything is stored
  // own key, server key for signed-in users, or the anonymous quota (lib/auth/model-access.ts)
  await assertModelAccess(db, input.userId, config.provider, availableProviders());
  if (config.visibility === 'private' && !input.userId) {
    throw new AppError('input/private-needs-account', 'Only signed-in users can make private runs.');
  }
  // a member's run of their team's skills is the team's; one of a private skill stays private
  const team = await runTeamFor(db, config.skills, input.userId);
  const visibility = team.hasPrivate ? 'private' : config.visibility;
  // the versions it will run, resolved now: a version published while it waits in the queue changes nothing
  const model = config.model || (config.provider === 'openai' || config.provider === 'anthropic' ? (modelConfig(config.provider)?.model ?? null) : null);
  const pins = await resolveRunPins(db, config, input.userId, input.pinVersions, model);
  const principal = input.principal ?? (input.userId ? userKey(input.userId) : anonymousKey(null));
  const controlToken = `syr_${crypto.randomBytes(24).toString('base64url')}`;
  const limits = runLimits();
  const anonymous = isAnonymousKey(principal);
  // Count, then insert, under a Postgres advisory lock of the principal (and of all
  // anonymous visitors, for their shared cap) held to the transaction's end: racing
  // requests on any number of instances are counted one after another. In one process
  // they also queue here first, so a burst waits without holding database connections.
  const run = await oneAtATime(principal, () =>
    db.$transaction(async (tx) => {
      // always the principal's lock first, then the anonymous one: no two requests wait on each other in a cycle
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`run-create:${principal}`}, 0))::text`;
      if (anonymous) await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended('run-create:anonymous', 0))::text`;
      const [active] = await tx.$queryRaw<Array<{ mine: bigint; anonymous: bigint }>>`
      SELECT count(*) FILTER (WHERE principal = ${principal}) AS mine,
             count(*) FILTER (WHERE principal LIKE ${`${ANONYMOUS_KEY_PREFIX}%`}) AS anonymous
      FROM "Run" WHERE status IN ('queued', 'running')`;
      const mine = Number(active?.mine ?? 0);
      if (mine >= limits.maxActivePerPrincipal) {
        throw new AppError(
          'run/too-many-active',
          `You have ${mine} runs queued or running, the most one ${anonymous ? 'visitor' : 'account'} may have (SKILLYARD_RUN_MAX_ACTIVE=${limits.maxActivePerPrincipal}). Wait for one to end or cancel one.`,
        );
      }
      const all = Number(active?.anonymous ?? 0);
      if (anonymous && all >= limits.maxActiveAnonymous) {
        throw new AppError(
          'run/too-many-active',
          `Anonymous visitors have ${all} runs queued or running, the most this server allows (SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS). Sign in, or try again later.`,
        );
      }
      return tx.run.create({
        data: {
          id: newRunId(), // the share link: never a cuid (run-id.ts)
          userId: input.userId,
          principal,
          teamId: team.teamId,
          visibility,
          config: { ...config, visibility } as object,
          forkedFromId: input.forkedFromId ?? null,
          controlHash: hashControlToken(controlToken),
          pins: pins as object,
          skillsUsed: { create: pins.skills.map((p) => ({ skillId: p.skillId, versionId: p.versionId })) },
        },
        select: { id: true },
      });
    }),
  );
  runEventBus().announceQueued();
  return { id: run.id, controlToken };
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call with the same key has settled. */
function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}
