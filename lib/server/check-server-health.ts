// /api/health: the database (reachable, migrations applied) and every background part
// that failed recently (run worker heartbeat, LISTEN connection, sandbox workers...), as
// recorded by lib/log's failure registry. Degraded when anything failed; 503 only when the
// database is unreachable (then nothing works).
import 'server-only';
import { recentFailures, type ComponentFailure } from '../log';
import { checkDatabaseHealth, type DatabaseHealth } from './check-database-health';
import type { ServerContext } from './server-context';

export type ServerHealth = {
  status: 'ok' | 'degraded' | 'down';
  database: DatabaseHealth;
  failures: ComponentFailure[];
  /** null until the first tool runs (the pool starts on first use) */
  sandbox: ReturnType<ServerContext['sandboxStats']>;
};

export async function checkServerHealth(server: Pick<ServerContext, 'db' | 'sandboxStats'>): Promise<ServerHealth> {
  const database = await checkDatabaseHealth(server.db);
  const failures = recentFailures();
  const sandbox = server.sandboxStats();
  const status = !database.ok ? 'down' : failures.length ? 'degraded' : 'ok';
  return { status, database, failures, sandbox };
}

export function healthStatusCode(health: ServerHealth): number {
  return health.status === 'down' ? 503 : 200;
}
