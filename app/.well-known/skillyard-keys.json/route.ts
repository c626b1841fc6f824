// GET /.well-known/skillyard-keys.json: the public keys statements are signed with, as a
// JWK set with each key's status (active, retired: still verifies, revoked: verifies
// nothing). docs/trust.md.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api/with-api';
import { activeSigningKey, publicKeySet } from '@/lib/registry/signing-keys';

export const dynamic = 'force-dynamic';

export const GET = withApi({}, async () => {
  const db = serverContext().db;
  await activeSigningKey(db); // the set is never empty: the first key is made on first ask
  return NextResponse.json(await publicKeySet(db), { headers: { 'Cache-Control': 'public, max-age=300' } });
});
