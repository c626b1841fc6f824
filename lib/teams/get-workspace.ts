// Everything a team's workspace page shows to one member: the team, members, pending
// invites, secret names (never values), API tokens (never secrets), skills, runs, OAuth
// connections (provider and scopes, never tokens), and,
// for admins, the latest audit events.
import 'server-only';
import type { Db } from '../db';
import { roleAtLeast } from '../authz';
import type { Actor } from './actor';
import { teamForActor } from './team-for-actor';
import { maySeeRunSkills } from './run-team';

export async function getWorkspace(db: Db, actor: Actor, slug: string) {
  const team = await teamForActor(db, slug, actor, 'member');
  const admin = roleAtLeast(team.role, 'admin');
  const [members, invites, secrets, tokens, skills, runs, audit, connections] = await Promise.all([
    db.membership.findMany({
      where: { teamId: team.id, user: { botForTeamId: null } },
      orderBy: { createdAt: 'asc' },
      select: { role: true, createdAt: true, user: { select: { id: true, name: true, handle: true, email: admin } } },
    }),
    admin
      ? db.teamInvite.findMany({
          where: { teamId: team.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
          orderBy: { createdAt: 'desc' },
          select: { id: true, email: true, role: true, expiresAt: true, createdAt: true },
        })
      : Promise.resolve([]),
    db.teamSecret.findMany({ where: { teamId: team.id }, orderBy: { name: 'asc' }, select: { name: true, createdAt: true } }),
    admin
      ? db.apiToken.findMany({
          where: { teamId: team.id, revokedAt: null },
          orderBy: { createdAt: 'desc' },
          select: { id: true, name: true, prefix: true, scopes: true, lastUsedAt: true, expiresAt: true, createdAt: true },
        })
      : Promise.resolve([]),
    db.skill.findMany({ where: { scopeName: slug }, orderBy: { name: 'asc' }, select: { name: true, description: true, visibility: true, downloads: true } }),
    db.run.findMany({
      where: { teamId: team.id },
      orderBy: { createdAt: 'desc' },
      take: 20,
      select: { id: true, status: true, visibility: true, createdAt: true, config: true, user: { select: { handle: true, name: true } } },
    }),
    admin ? db.auditEvent.findMany({ where: { teamId: team.id }, orderBy: { createdAt: 'desc' }, take: 50 }) : Promise.resolve([]),
    // the team's OAuth connections: provider and scopes, never a token
    db.heldToken.findMany({
      where: { teamId: team.id, issuer: { startsWith: '@oauth/' }, mintedByTool: null },
      orderBy: { createdAt: 'asc' },
      select: { issuer: true, claims: true, expiresAt: true, createdAt: true },
    }),
  ]);
  // a private run shows only to a member who may see every private skill it names (as getRun)
  const visibleRuns = (
    await Promise.all(runs.map(async (r) => (r.visibility !== 'private' || (await maySeeRunSkills(db, (r.config as { skills?: unknown } | null)?.skills, team.userId)) ? r : null)))
  ).filter((r) => r !== null);
  const teamRuns = visibleRuns.map(({ config, user, ...r }) => {
    const skills = (config as { skills?: unknown } | null)?.skills;
    return { ...r, skills: Array.isArray(skills) ? skills.map(String) : [], by: user?.handle ? `@${user.handle}` : (user?.name ?? 'someone') };
  });
  const teamConnections = connections.map((c) => ({ provider: c.issuer.slice('@oauth/'.length), claims: c.claims, expiresAt: c.expiresAt, connectedAt: c.createdAt }));
  return { team, admin, members, invites, secrets, tokens, skills, runs: teamRuns, audit, connections: teamConnections };
}
