// GET /api/v1/skills/{scope}/{name}/{version}/permissions[?from=<version>]: what the version
// may do (docs/trust.md), as a summary and as facts in plain words; with `from`, also what
// changes from that version to this one (`widens` when it adds anything).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { diffVersionPermissions, getVersionPermissions, VersionParams } from '@/lib/registry';

export const dynamic = 'force-dynamic';

const Query = z.object({ from: z.string().min(1).max(64).optional() });

export const GET = withApi<{ scope: string; name: string; version: string }>({}, async ({ req, params, userId }) => {
  const ref = VersionParams.parse(params);
  const { from } = Query.parse(Object.fromEntries(new URL(req.url).searchParams));
  const viewer = userId ? { userId } : null;
  const db = serverContext().db;
  const out = await getVersionPermissions(db, ref, viewer);
  if (!from) return NextResponse.json(out);
  const diff = await diffVersionPermissions(db, { scope: ref.scope, name: ref.name, from, to: ref.version }, viewer);
  return NextResponse.json({ ...out, diff });
});
