// Rows an e2e spec needs that no page creates yet: a user with a username (= scope) and
// an API token, written straight into the e2e server's database.
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';

export function e2eDatabaseUrl(): string {
  return fs.readFileSync('.data/e2e-database-url', 'utf8').trim();
}

export async function createPublisher(handle: string, scopes: string[] = ['publish']): Promise<{ userId: string; token: string }> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const userId = `e2e_${crypto.randomBytes(8).toString('hex')}`;
    await client.query(`INSERT INTO "User" (id, handle, name, "updatedAt") VALUES ($1, $2, $2, now())`, [userId, handle]);
    await client.query(`INSERT INTO "Scope" (name, kind, "userId") VALUES ($1, 'user', $2)`, [handle, userId]);
    const prefix = crypto.randomBytes(4).toString('hex');
    const token = `sy_${prefix}_${crypto.randomBytes(24).toString('base64url')}`;
    const hash = crypto.createHash('sha256').update(token).digest('hex');
    await client.query(`INSERT INTO "ApiToken" (id, "userId", name, prefix, hash, scopes) VALUES ($1, $2, 'e2e', $3, $4, $5)`, [`tok_${prefix}`, userId, prefix, hash, scopes]);
    return { userId, token };
  } finally {
    await client.end();
  }
}

/** A signed-in browser: a database session for the user, as next-auth's cookie. */
export async function createSession(userId: string): Promise<string> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const sessionToken = crypto.randomBytes(32).toString('hex');
    await client.query(`INSERT INTO "Session" (id, "sessionToken", "userId", expires) VALUES ($1, $2, $3, now() + interval '1 day')`, [
      `ses_${crypto.randomBytes(8).toString('hex')}`,
      sessionToken,
      userId,
    ]);
    return sessionToken;
  } finally {
    await client.end();
  }
}
