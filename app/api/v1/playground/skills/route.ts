// Skill picker of the playground: public skills matching `?q=`, with their tool names,
// so the form can suggest an allowed-tools spec. Read-only; a signed-in caller also finds
// the private skills of their own scope and teams.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { withApi } from '@/lib/api';
import { listPlaygroundSkills, type PlaygroundSkillOption } from '@/lib/registry';
import { serverContext } from '@/lib/server';
import { privateScopesOf } from '@/lib/authz';

export const dynamic = 'force-dynamic';

const Query = z.object({ q: z.string().max(100).optional().default(''), take: z.coerce.number().int().min(1).max(20).default(12) });

export type { PlaygroundSkillOption };

export const GET = withApi({}, async ({ req, principal }) => {
  const url = new URL(req.url);
  const query = Query.parse({ q: url.searchParams.get('q') ?? undefined, take: url.searchParams.get('take') ?? undefined });
  const { db } = serverContext();
  const viewerScopes = principal.kind === 'anonymous' ? [] : await privateScopesOf(db, principal.userId);
  const options = await listPlaygroundSkills(db, { ...query, viewerScopes });
  return NextResponse.json(options, { headers: { 'Cache-Control': 'no-store' } });
});
