// /api/health/ready: whether a balancer should send this instance new work. Not ready
// while it drains (SIGTERM), without its database, or without a LISTEN connection that
// hears (then live run events and revocations from other instances reach it late).
// /api/health/live says only that the process answers.
import 'server-only';
import { runEventBus, processDraining } from '../runs';
import { checkDatabaseHealth } from './check-database-health';
import type { ServerContext } from './server-context';

export type Readiness = { ready: boolean; database: boolean; listen: boolean; draining: boolean };

export async function checkReadiness(server: Pick<ServerContext, 'db'>): Promise<Readiness> {
  const draining = processDraining();
  const listen = runEventBus().live;
  const database = (await checkDatabaseHealth(server.db)).ok;
  return { ready: database && listen && !draining, database, listen, draining };
}
