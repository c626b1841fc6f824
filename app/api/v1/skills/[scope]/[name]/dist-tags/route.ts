// GET /api/v1/skills/{scope}/{name}/dist-tags: {tag: version}.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api/with-api';
import { findVisibleSkill } from '@/lib/registry/find-visible-skill';
import { listDistTags } from '@/lib/registry/set-dist-tag';
import { SkillParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ scope: string; name: string }>({}, async ({ params, userId }) => {
  const skill = await findVisibleSkill(serverContext().db, SkillParams.parse(params), userId ? { userId } : null);
  return NextResponse.json(await listDistTags(serverContext().db, skill.id));
});
