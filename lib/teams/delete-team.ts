// Deletes a team (owners only). A team with published public or unlisted versions cannot
// be deleted: others may depend on them (as on npm); transfer or make them private first.
// Deleting frees the name, so everything keyed by the name `@<team>/…` rather than by the
// team's id goes in the same transaction: what the team's skills stored for every caller
// (`KvEntry.skill`) and the tokens they minted (held tokens of issuers `@<team>/…`, by
// anyone). Otherwise whoever creates a team of that name next, and publishes a skill of
// the same name, would read the old skill's data and accept its tokens.
// A scope that ever published a version stays reserved, ownerless (as a deleted user's
// does): whoever took the name next would serve `@<team>/lib@^1` to everyone who depends
// on it. Private versions count too: the team's former members still name them.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { Actor } from './actor';
import { announceMembersTokens, teamMemberIds } from './announce-team-tokens';
import { teamForActor } from './team-for-actor';

export async function deleteTeam(db: Db, actor: Actor, slug: string): Promise<void> {
  const team = await teamForActor(db, slug, actor, 'owner');
  const published = await db.skill.count({ where: { scopeName: slug, visibility: { in: ['public', 'unlisted'] } } });
  if (published > 0) {
    throw new AppError(
      'team/has-published-skills',
      `@${slug} has ${published} public or unlisted skill${published === 1 ? '' : 's'}; make them private or transfer them before deleting the team.`,
    );
  }
  const members = await teamMemberIds(db, team.id);
  await db.$transaction(async (tx) => {
    const prefix = `@${slug}/`;
    await tx.kvEntry.deleteMany({ where: { skill: { startsWith: prefix } } });
    await tx.heldToken.deleteMany({ where: { OR: [{ issuer: { startsWith: prefix } }, { mintedByTool: { startsWith: prefix } }] } });
    await tx.skill.deleteMany({ where: { scopeName: slug } });
    // UsedVersionNumber outlives every deletion: it says whether the scope ever published
    const published = await tx.usedVersionNumber.findFirst({ where: { scopeName: slug }, select: { name: true } });
    if (published) await tx.scope.update({ where: { name: slug }, data: { teamId: null } });
    else await tx.scope.delete({ where: { name: slug } });
    await tx.team.delete({ where: { id: team.id } });
    await tx.user.deleteMany({ where: { botForTeamId: team.id } });
  });
  announceMembersTokens(members);
}
