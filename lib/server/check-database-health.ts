// The database half of /api/health: reachable, and how many migrations are applied.
import 'server-only';
import type { Db } from '../db';

export type DatabaseHealth = { ok: true; latencyMs: number; migrations: number } | { ok: false; error: string };

export async function checkDatabaseHealth(db: Db): Promise<DatabaseHealth> {
  const started = performance.now();
  try {
    const rows = await db.$queryRaw<Array<{ count: bigint }>>`
      SELECT count(*)::bigint AS count FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`;
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10, migrations: Number(rows[0]?.count ?? 0) };
  } catch (err) {
    // the message may hold a connection string: say only what kind of failure it was
    const code = (err as { code?: string }).code;
    return { ok: false, error: code ? `database error ${code}` : 'database unreachable' };
  }
}
