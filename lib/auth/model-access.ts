// Who may spend which model keys (issue 10): a user's own key is used for their runs only;
// the server's keys serve signed-in users; anonymous visitors get the manual and scripted
// providers, plus the server's models only within SKILLYARD_ANONYMOUS_MODEL_RUNS_PER_DAY
// (default 0) runs per day across all anonymous visitors.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { MODEL_KEY_PROVIDERS } from './model-keys';
import { setting, type Env } from '../config';

const FREE = new Set(['scripted', 'manual']);
const DAY_MS = 86_400_000;

export function anonymousModelQuota(env?: Env): number {
  return setting('SKILLYARD_ANONYMOUS_MODEL_RUNS_PER_DAY', env);
}

async function anonymousModelRunsToday(db: Db, now: Date): Promise<number> {
  const rows = await db.$queryRaw<Array<{ n: bigint }>>`
    SELECT count(*)::bigint AS n FROM "Run"
    WHERE "userId" IS NULL AND "createdAt" > ${new Date(now.getTime() - DAY_MS)}
      AND coalesce("config"->>'provider', '') NOT IN ('scripted', 'manual')`;
  return Number(rows[0]?.n ?? 0);
}

async function hasOwnKey(db: Db, userId: string | null, provider: string): Promise<boolean> {
  if (!userId) return false;
  return (await db.modelKey.count({ where: { userId, provider } })) > 0;
}

/** Throws unless this caller may start a run with `provider`; `serverProviders` are those the server has keys for. */
export async function assertModelAccess(db: Db, userId: string | null, provider: string, serverProviders: readonly string[], now = new Date()): Promise<void> {
  if (FREE.has(provider)) return;
  if (await hasOwnKey(db, userId, provider)) return;
  if (!serverProviders.includes(provider)) {
    throw new AppError(
      'input/provider-unavailable',
      `The ${provider} provider is not configured on this server${userId ? ', and you have no key of your own for it (Settings)' : ''}.`,
    );
  }
  if (userId) return;
  const quota = anonymousModelQuota();
  if (quota === 0 || (await anonymousModelRunsToday(db, now)) >= quota) {
    throw new AppError(
      'auth/sign-in-required',
      `Sign in to run the ${provider} model: anonymous visitors may use the manual and scripted providers${quota ? ` (today's ${quota} anonymous model runs are used up)` : ''}.`,
    );
  }
}

/** The providers to offer this caller in the playground. */
export async function providersFor(db: Db, userId: string | null, serverProviders: readonly string[]): Promise<string[]> {
  const own = userId ? (await db.modelKey.findMany({ where: { userId }, select: { provider: true } })).map((k) => k.provider) : [];
  const names = new Set<string>();
  for (const p of serverProviders) {
    if (FREE.has(p) || userId || anonymousModelQuota() > 0) names.add(p);
  }
  for (const p of own) if ((MODEL_KEY_PROVIDERS as readonly string[]).includes(p)) names.add(p);
  return [...names];
}
