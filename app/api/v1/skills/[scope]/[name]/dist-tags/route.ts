// GET /api/v1/skills/{scope}/{name}/dist-tags: {tag: version}.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { findVisibleSkill, listDistTags, SkillParams } from '@/lib/registry';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ scope: string; name: string }>({}, async ({ params, userId }) => {
  const skill = await findVisibleSkill(serverContext().db, SkillParams.parse(params), userId ? { userId } : null);
  return NextResponse.json(await listDistTags(serverContext().db, skill.id));
});
