// lib/actions: the server-action chain (server-action.ts: origin, user, input, rate limit,
// one result shape) and the team actions built on it (team-action.ts).
import 'server-only';
export { serverAction, actionError, formText, failedState, type ActionState, type ActionResult, type ActionContext, type SignedInContext } from './server-action';
export { teamAction, forSignedInUser, IDLE as TEAM_IDLE, type ActionState as TeamActionState } from './team-action';
