// GET /api/v1/skills/{scope}/{name}/versions[?all=1]: versions newest first (yanked
// ones only with all=1) and the dist-tags.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { listVersions, SkillParams } from '@/lib/registry';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ scope: string; name: string }>({}, async ({ req, params, userId }) => {
  const ref = SkillParams.parse(params);
  const all = ['1', 'true'].includes(new URL(req.url).searchParams.get('all') ?? '');
  const out = await listVersions(serverContext().db, ref, userId ? { userId } : null, { includeYanked: all });
  return NextResponse.json(out);
});
