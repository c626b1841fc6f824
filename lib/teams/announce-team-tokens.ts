// A team's connections are held by its members while they are members (team-held-tokens.ts):
// when the connections or the membership change, each member's tools may change, and open
// MCP sessions of theirs are told (lib/runtime's held-tokens signal).
import 'server-only';
import type { Db } from '../db';
import { userKey } from '../principal';
import { heldTokensChanged } from '../runtime';

/** The members' user ids of a team, to announce to after the change (read before a deletion). */
export async function teamMemberIds(db: Pick<Db, 'membership'>, teamId: string): Promise<string[]> {
  return (await db.membership.findMany({ where: { teamId }, select: { userId: true } })).map((m) => m.userId);
}

/** Announces that these users' held tokens changed (a team connection or membership). */
export function announceMembersTokens(userIds: string[]): void {
  heldTokensChanged(...userIds.map(userKey));
}
