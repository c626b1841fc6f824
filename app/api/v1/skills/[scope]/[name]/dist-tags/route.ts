// GET /api/v1/skills/{scope}/{name}/dist-tags: {tag: version}.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { handleRoute } from '@/lib/api/handle-route';
import { findVisibleSkill } from '@/lib/registry/find-visible-skill';
import { listDistTags } from '@/lib/registry/set-dist-tag';
import { SkillParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

export const GET = handleRoute<{ scope: string; name: string }>(async ({ params, principal }) => {
  const skill = await findVisibleSkill(serverContext().db, SkillParams.parse(params), principal ? { userId: principal.userId } : null);
  return NextResponse.json(await listDistTags(serverContext().db, skill.id));
});
