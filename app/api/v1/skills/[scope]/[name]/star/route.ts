// PUT /api/v1/skills/{scope}/{name}/star: star a skill; DELETE: take the star back.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { AppError } from '@/lib/errors';
import { starSkill, SkillParams } from '@/lib/registry';
import { requireUser } from '@/lib/principal';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string };

const star = (starred: boolean) =>
  withApi<P>({}, async ({ params, principal }) => {
    const userId = requireUser(principal);
    // a star is a person's: a team is free to create, so its tokens would be as many extra votes
    if (principal.kind === 'token' && principal.teamId) throw new AppError('auth/forbidden', 'Stars are given by people; a team API token cannot star.');
    return NextResponse.json(await starSkill(serverContext().db, SkillParams.parse(params), userId, starred));
  });

export const PUT = star(true);
export const DELETE = star(false);
