// The `environment` capability reads team secrets: a team caller (a team API token) reads
// its own team's; a user running one of a team's own skills (`@team/skill`) reads that
// team's secrets while, and only while, they are a member. Nobody else reads any.
import 'server-only';
import type { Db } from '../../db';
import type { EnvironmentProvider } from '../../runtime';
import { openSecret } from '../../auth';
import { parseHolder } from './pg-token-vault';

const SKILL_SCOPE = /^@([a-z0-9][a-z0-9-]*)\//;

export function createPgEnvironment(db: Db): EnvironmentProvider {
  return {
    async get(scope, name) {
      const holder = parseHolder(scope.callerId);
      if (holder?.teamId) {
        const row = await db.teamSecret.findUnique({ where: { teamId_name: { teamId: holder.teamId, name } } });
        return row ? openSecret(row.value) : null;
      }
      const skillScope = SKILL_SCOPE.exec(scope.skill)?.[1];
      if (!holder?.userId || !skillScope) return null;
      // one query: the secret of the team that owns the skill's scope, if this user is its member
      const row = await db.teamSecret.findFirst({
        where: { name, team: { scope: { name: skillScope }, memberships: { some: { userId: holder.userId } } } },
        select: { value: true },
      });
      return row ? openSecret(row.value) : null;
    },
  };
}
