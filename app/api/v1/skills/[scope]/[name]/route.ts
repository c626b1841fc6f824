// GET /api/v1/skills/{scope}/{name}: the skill with its latest version's manifest,
// dist-tags, versions (yanked/deprecated marked), downloads and stars.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { getSkill, SkillParams } from '@/lib/registry';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ scope: string; name: string }>({}, async ({ params, userId }) => {
  const ref = SkillParams.parse(params);
  const skill = await getSkill(serverContext().db, ref, userId ? { userId } : null);
  return NextResponse.json(skill);
});
