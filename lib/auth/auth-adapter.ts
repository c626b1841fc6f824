// @auth/prisma-adapter with two changes: provider tokens never land in the Account table
// in clear (they go to the token vault, sealed, see oauth-connections.ts), and an e-mail
// address an OAuth provider reports is not stored, so it can never link accounts later.
import 'server-only';
import { PrismaAdapter } from '@auth/prisma-adapter';
import type { Adapter, AdapterAccount } from 'next-auth/adapters';
import type { Db } from '../db';

export function skillyardAdapter(db: Db): Adapter {
  // the adapter's types name @prisma/client; ours is the generated client of the same version
  const base = PrismaAdapter(db as never);
  return {
    ...base,
    async createUser(user) {
      const { id: _ignored, ...data } = user;
      void _ignored;
      // only the e-mail flow verifies an address (emailVerified set): keep it only then
      const email = data.emailVerified ? data.email : null;
      const row = await db.user.create({ data: { name: data.name ?? null, image: data.image ?? null, email, emailVerified: data.emailVerified ?? null } });
      return { ...row, email: row.email ?? '' };
    },
    async deleteSession(sessionToken) {
      // "sign out everywhere" may already have deleted it
      await db.session.deleteMany({ where: { sessionToken } });
      return null;
    },
    async linkAccount(account: AdapterAccount) {
      await db.account.create({
        data: {
          userId: account.userId,
          type: account.type,
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          token_type: typeof account.token_type === 'string' ? account.token_type : null,
          scope: typeof account.scope === 'string' ? account.scope : null,
          expires_at: typeof account.expires_at === 'number' ? account.expires_at : null,
        },
      });
      return null;
    },
  };
}
