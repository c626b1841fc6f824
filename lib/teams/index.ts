// lib/teams: team workspaces (see docs/teams.md). One operation per file.
export type { Actor } from './actor';
export { parseTeamSlug, RESERVED_SCOPES } from './team-slug';
export { teamForActor, type TeamForActor } from './team-for-actor';
export { createTeam } from './create-team';
export { renameTeam } from './rename-team';
export { deleteTeam } from './delete-team';
export { createInvite, INVITE_TTL_MS } from './create-invite';
export { acceptInvite } from './accept-invite';
export { revokeInvite } from './revoke-invite';
export { changeMemberRole } from './change-member-role';
export { removeMember } from './remove-member';
export { setTeamSecret } from './set-team-secret';
export { deleteTeamSecret } from './delete-team-secret';
export { getWorkspace } from './get-workspace';
export { listAudit } from './list-audit';
export { listUserTeams } from './list-user-teams';
export { createTeamApiToken, revokeTeamApiToken } from './create-team-api-token';
export { recordAudit, type AuditAction } from './record-audit';
