'use server';
// "Re-run my recent runs with this version" on a skill's page: same-origin check, a
// signed-in user, parsed input, a rate limit (each check forks up to five runs), then
// lib/runs/upgrade-check.ts, which checks that the user may publish the skill and reads
// every run with the user's own access.
import { z } from 'zod';
import { currentUser } from '@/lib/auth/current-user';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { actionFailure, type ActionFailure } from '@/lib/api/action-failure';
import { consumeRateLimitExact } from '@/lib/limits';
import { AppError } from '@/lib/errors';
import { serverContext } from '@/lib/server';
import { SkillParams } from '@/lib/registry/skill-route-params';
import { MAX_UPGRADE_RUNS, readUpgradeCheck, startUpgradeCheck, type UpgradeCheck, type UpgradeResult } from '@/lib/runs/upgrade-check';

/** checks one user may start in UPGRADE_WINDOW_MS */
const UPGRADE_CHECKS = 3;
const UPGRADE_WINDOW_MS = 10 * 60_000;

const StartInput = SkillParams.extend({ version: z.string().regex(/^[0-9A-Za-z.+-]{1,64}$/) });
const RunId = z.string().regex(/^[0-9a-f]{32}(?:[0-9a-f]{32})?$/);
const Pairs = z.array(z.object({ original: RunId, fork: RunId, from: z.string().max(64) }).strict()).max(MAX_UPGRADE_RUNS);

async function signedIn(what: string) {
  await assertSameOrigin();
  const user = await currentUser();
  if (!user) throw new AppError('auth/unauthenticated', `Sign in to ${what}.`);
  return user;
}

export async function startUpgradeCheckAction(input: {
  scope: string;
  name: string;
  version: string;
}): Promise<{ ok: true; check: UpgradeCheck } | { ok: false; error: ActionFailure }> {
  try {
    const user = await signedIn('re-run your runs');
    const ref = StartInput.parse(input);
    const limit = await consumeRateLimitExact(serverContext().db, `upgrade-check:${user.id}`, { limit: UPGRADE_CHECKS, windowMs: UPGRADE_WINDOW_MS });
    if (!limit.allowed) {
      throw new AppError(
        'run/upgrade-busy',
        `You started ${UPGRADE_CHECKS} upgrade checks in the last ${UPGRADE_WINDOW_MS / 60_000} minutes; try again in ${Math.ceil(limit.resetMs / 1000)} s.`,
      );
    }
    return { ok: true, check: await startUpgradeCheck(serverContext().db, { ...ref, userId: user.id }) };
  } catch (err) {
    return { ok: false, error: await actionFailure(err, 'startUpgradeCheck') };
  }
}

export async function readUpgradeCheckAction(pairs: unknown): Promise<{ ok: true; results: UpgradeResult[] } | { ok: false; error: ActionFailure }> {
  try {
    const user = await signedIn('see the upgrade check');
    const parsed = Pairs.safeParse(pairs);
    if (!parsed.success) throw new AppError('input/invalid', 'Not an upgrade check.');
    return { ok: true, results: await readUpgradeCheck(serverContext().db, parsed.data, user.id) };
  } catch (err) {
    return { ok: false, error: await actionFailure(err, 'readUpgradeCheck') };
  }
}
