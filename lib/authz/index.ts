// lib/authz: one answer to "may this principal do this to this resource" (see docs/teams.md).
import 'server-only';
export { TEAM_ROLES, isTeamRole, roleAtLeast, type TeamRole } from './team-roles';
export { scopeAccess, maySeePrivate, mayPublish, mayAdminister, mayOwn, type ScopeAccess } from './scope-access';
export { privateScopesOf } from './private-scopes';
