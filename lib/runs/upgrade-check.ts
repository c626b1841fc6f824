// "Re-run my recent runs with this version": for whoever may publish a skill, its recent
// runs by them (and by their teams) that were pinned to an earlier version are forked with
// only that skill moved to the chosen one (fork-run.ts), and each fork, once it ended, is
// compared with its original (compare-runs.ts). Only scripted and manual runs are re-run:
// they replay the same code, so a difference is the version's; a model's run would call
// the model again (and bill it) and differ for reasons of its own.
import 'server-only';
import semver from 'semver';
import type { Db } from '../db';
import { AppError } from '../errors';
import { mayManageSkill } from '../registry';
import { compareRuns } from './compare-runs';
import { forkRun } from './fork-run';
import { getRun } from './get-run';
import { userKey } from '../principal';

/** runs re-run by one check at most (each is a fork that runs on the workers) */
export const MAX_UPGRADE_RUNS = 5;
/** how far back runs are looked for */
export const UPGRADE_LOOKBACK_DAYS = 30;

export type UpgradePair = { original: string; fork: string; from: string };
export type UpgradeCheck = { skill: string; version: string; pairs: UpgradePair[]; skipped: Array<{ run: string; reason: string }> };
export type UpgradeResult = UpgradePair & { status: 'running' | 'same' | 'differs'; differing?: number; forkStatus: string };

async function findTarget(db: Db, scope: string, name: string, version: string, userId: string) {
  if (!(await mayManageSkill(db, scope, userId))) throw new AppError('auth/forbidden', `Only who may publish @${scope}/${name} can re-run runs with its versions.`);
  const target = await db.skillVersion.findFirst({
    where: { version, skill: { scopeName: scope, name } },
    select: { id: true, version: true, yankedAt: true, skillId: true },
  });
  if (!target) throw new AppError('skill/version-not-found', `@${scope}/${name}@${version} was not found.`);
  return target;
}

/** The viewer's and their teams' recent replayable runs pinned to an earlier version of the skill, newest first. */
async function candidates(db: Db, skillId: string, targetVersion: string, userId: string) {
  const teams = (await db.membership.findMany({ where: { userId }, select: { teamId: true } })).map((m) => m.teamId);
  const since = new Date(Date.now() - UPGRADE_LOOKBACK_DAYS * 86_400_000);
  const rows = await db.runSkill.findMany({
    where: {
      skillId,
      createdAt: { gte: since },
      run: {
        status: { in: ['succeeded', 'failed'] },
        OR: [{ userId }, ...(teams.length ? [{ teamId: { in: teams } }] : [])],
      },
    },
    orderBy: { createdAt: 'desc' },
    take: 200,
    select: { runId: true, versionId: true, run: { select: { config: true } } },
  });
  const versions = new Map(
    (await db.skillVersion.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.versionId))] } }, select: { id: true, version: true } })).map((v) => [v.id, v.version]),
  );
  return rows
    .map((r) => ({ runId: r.runId, from: versions.get(r.versionId) ?? '', provider: (r.run.config as { provider?: string } | null)?.provider }))
    .filter((r) => r.from && semver.valid(r.from) && semver.lt(r.from, targetVersion));
}

/** Forks the recent runs that used an earlier version with only this skill moved to `version`. */
export async function startUpgradeCheck(db: Db, input: { scope: string; name: string; version: string; userId: string }): Promise<UpgradeCheck> {
  const target = await findTarget(db, input.scope, input.name, input.version, input.userId);
  if (target.yankedAt) throw new AppError('run/fork-version', `${input.version} is yanked; re-run runs with a version that is not.`);
  const ref = `@${input.scope}/${input.name}`;
  const found = await candidates(db, target.skillId, target.version, input.userId);
  const pairs: UpgradePair[] = [];
  const skipped: UpgradeCheck['skipped'] = [];
  for (const c of found) {
    if (pairs.length >= MAX_UPGRADE_RUNS) break;
    if (c.provider !== 'scripted' && c.provider !== 'manual') {
      if (skipped.length < 20) skipped.push({ run: c.runId, reason: `a ${c.provider} run: re-running it would call the model again` });
      continue;
    }
    try {
      const fork = await forkRun(db, c.runId, { userId: input.userId }, { versions: { mode: 'move', skill: ref, version: target.version } }, userKey(input.userId));
      pairs.push({ original: c.runId, fork: fork.id, from: c.from });
    } catch (err) {
      // a run that cannot be forked now (too many active, a skill gone) is listed, not fatal
      skipped.push({ run: c.runId, reason: err instanceof Error ? err.message : String(err) });
      if (err instanceof AppError && err.code === 'run/too-many-active') break;
    }
  }
  return { skill: ref, version: target.version, pairs, skipped };
}

/** Where each fork of a check stands: still running, or the same as its original or not. */
export async function readUpgradeCheck(db: Db, pairs: UpgradePair[], userId: string): Promise<UpgradeResult[]> {
  const out: UpgradeResult[] = [];
  for (const pair of pairs.slice(0, MAX_UPGRADE_RUNS)) {
    // both runs are read with the viewer's access: a pair they may not see is "no such run"
    const fork = await getRun(db, pair.fork, { userId });
    if (fork.status === 'queued' || fork.status === 'running') {
      out.push({ ...pair, forkStatus: fork.status, status: 'running' });
      continue;
    }
    const c = await compareRuns(db, pair.original, pair.fork, () => ({ userId }));
    out.push({ ...pair, forkStatus: c.b.status, status: c.differs ? 'differs' : 'same', differing: c.trace.differing });
  }
  return out;
}
