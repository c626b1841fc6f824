// GET /api/v1/skills/{scope}/{name}/{version}/statement: the registry's signed statement
// about the version (a compact JWS; docs/trust.md), with its payload decoded for reading.
// `skillyard verify` checks it against /.well-known/skillyard-keys.json.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { getVersionStatement, VersionParams } from '@/lib/registry';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ scope: string; name: string; version: string }>({}, async ({ params, userId }) => {
  const ref = VersionParams.parse(params);
  return NextResponse.json(await getVersionStatement(serverContext().db, ref, userId ? { userId } : null));
});
