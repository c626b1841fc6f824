// GET /api/v1/skills/{scope}/{name}/{version}/evidence: what the version's code did when
// the registry ran its examples after the publish (status while queued or running), and
// where it came from when a trusted publisher published it (docs/trust.md).
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { getVersionTrust, VersionParams } from '@/lib/registry';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string; version: string };

export const GET = withApi<P>({}, async ({ params, userId }) => {
  const ref = VersionParams.parse(params);
  return NextResponse.json(await getVersionTrust(serverContext().db, ref, userId ? { userId } : null));
});
