// PUT /api/v1/skills/{scope}/{name}/star: star a skill; DELETE: take the star back.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { AppError } from '@/lib/errors';
import { handleRoute } from '@/lib/api/handle-route';
import { starSkill } from '@/lib/registry/star-skill';
import { SkillParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string };

const star = (starred: boolean) =>
  handleRoute<P>(async ({ params, principal }) => {
    if (!principal) throw new AppError('auth/unauthenticated', 'Sign in to star skills: send "Authorization: Bearer <API token>".');
    return NextResponse.json(await starSkill(serverContext().db, SkillParams.parse(params), principal.userId, starred));
  });

export const PUT = star(true);
export const DELETE = star(false);
