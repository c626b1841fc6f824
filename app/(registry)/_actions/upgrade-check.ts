'use server';
// "Re-run my recent runs with this version" on a skill's page: same-origin check, a
// signed-in user, parsed input, a rate limit (each check forks up to five runs), then
// lib/runs/upgrade-check.ts, which checks that the user may publish the skill and reads
// every run with the user's own access.
import { z } from 'zod';
import { serverAction, type ActionResult } from '@/lib/actions';
import { consumeRateLimitExact } from '@/lib/limits';
import { AppError } from '@/lib/errors';
import { SkillParams } from '@/lib/registry';
import { MAX_UPGRADE_RUNS, readUpgradeCheck, startUpgradeCheck, type UpgradeCheck, type UpgradeResult } from '@/lib/runs';

/** checks one user may start in UPGRADE_WINDOW_MS */
const UPGRADE_CHECKS = 3;
const UPGRADE_WINDOW_MS = 10 * 60_000;

const StartInput = SkillParams.extend({ version: z.string().regex(/^[0-9A-Za-z.+-]{1,64}$/) });
const RunId = z.string().regex(/^[0-9a-f]{32}(?:[0-9a-f]{32})?$/);
const Pairs = z.array(z.object({ original: RunId, fork: RunId, from: z.string().max(64) }).strict()).max(MAX_UPGRADE_RUNS);

const start = serverAction({ name: 'startUpgradeCheck', input: StartInput, signedIn: { message: 'Sign in to re-run your runs.' } }, async (ref, { db, user }) => {
  const limit = await consumeRateLimitExact(db, `upgrade-check:${user.id}`, { limit: UPGRADE_CHECKS, windowMs: UPGRADE_WINDOW_MS });
  if (!limit.allowed) {
    throw new AppError(
      'run/upgrade-busy',
      `You started ${UPGRADE_CHECKS} upgrade checks in the last ${UPGRADE_WINDOW_MS / 60_000} minutes; try again in ${Math.ceil(limit.resetMs / 1000)} s.`,
    );
  }
  return { check: await startUpgradeCheck(db, { ...ref, userId: user.id }) };
});

export async function startUpgradeCheckAction(input: { scope: string; name: string; version: string }): Promise<ActionResult<{ check: UpgradeCheck }>> {
  return start(input);
}

const read = serverAction({ name: 'readUpgradeCheck', signedIn: { message: 'Sign in to see the upgrade check.' } }, async (pairs: unknown, { db, user }) => {
  const parsed = Pairs.safeParse(pairs);
  if (!parsed.success) throw new AppError('input/invalid', 'Not an upgrade check.');
  return { results: await readUpgradeCheck(db, parsed.data, user.id) };
});

export async function readUpgradeCheckAction(pairs: unknown): Promise<ActionResult<{ results: UpgradeResult[] }>> {
  return read(pairs);
}
