// Whether the skill page shows its version controls to this viewer: whoever may publish
// into the scope (its user, or a team's publishers, admins and owners). The actions
// check again; this only decides what is shown.
import 'server-only';
import type { Db } from '../db';
import { mayPublish, scopeAccess } from '../authz';
import { userPrincipal } from '../principal';

export async function mayManageSkill(db: Db, scope: string, userId: string | null): Promise<boolean> {
  if (!userId) return false;
  return mayPublish(await scopeAccess(db, scope, userPrincipal(userId)));
}
