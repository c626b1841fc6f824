// Team roles, weakest first. Owners manage everything (there is always at least one);
// admins manage members, secrets, tokens and connections; publishers publish, yank and
// deprecate in the team's scope; members see the team's private skills and run them.
import 'server-only';
export const TEAM_ROLES = ['member', 'publisher', 'admin', 'owner'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export function isTeamRole(v: unknown): v is TeamRole {
  return typeof v === 'string' && (TEAM_ROLES as readonly string[]).includes(v);
}

export function roleAtLeast(role: TeamRole | null | undefined, min: TeamRole): boolean {
  return role != null && TEAM_ROLES.indexOf(role) >= TEAM_ROLES.indexOf(min);
}
