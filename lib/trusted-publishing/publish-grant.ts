// What a trusted publisher's token may publish: its one skill, with the provenance its
// versions record.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { VersionProvenanceInput } from './types';

export type PublishGrant = { scope: string; name: string; provenance: VersionProvenanceInput };

export async function publishGrantOf(db: Db, tokenId: string): Promise<PublishGrant> {
  const grant = await db.trustedPublishGrant.findUnique({
    where: { tokenId },
    select: { provenance: true, expiresAt: true, publisher: { select: { skill: { select: { scopeName: true, name: true } } } } },
  });
  if (!grant || grant.expiresAt.getTime() <= Date.now()) throw new AppError('auth/unauthenticated', 'The trusted publishing token is unknown or expired.');
  const { scopeName, name } = grant.publisher.skill;
  return { scope: scopeName, name, provenance: grant.provenance as unknown as VersionProvenanceInput };
}

/** A trusted publishing token's upload must be its skill. */
export function assertGrantCovers(grant: PublishGrant, published: { scope: string; name: string | null }): void {
  if (published.scope !== grant.scope || published.name !== grant.name) {
    throw new AppError('publish/not-trusted-for-skill', `This token publishes @${grant.scope}/${grant.name} only, not @${published.scope}/${published.name ?? '?'}.`);
  }
}
