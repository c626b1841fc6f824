// The `environment` capability: a team's secrets, for callers acting as that team.
import type { Db } from '../../db/client';
import type { EnvironmentProvider } from '../../runtime';
import { openSecret } from '../../auth/secret-box';
import { parseHolder } from './pg-token-vault';

export function createPgEnvironment(db: Db): EnvironmentProvider {
  return {
    async get(scope, name) {
      const holder = parseHolder(scope.callerId);
      if (!holder?.teamId) return null;
      const row = await db.teamSecret.findUnique({ where: { teamId_name: { teamId: holder.teamId, name } } });
      return row ? openSecret(row.value) : null;
    },
  };
}
