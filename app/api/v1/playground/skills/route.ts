// Skill picker of the playground: public skills matching `?q=`, with their tool names,
// so the form can suggest an allowed-tools spec. Read-only, nothing private.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { withApi } from '@/lib/api/with-api';
import { listPlaygroundSkills, type PlaygroundSkillOption } from '@/lib/registry/list-playground-skills';
import { serverContext } from '@/lib/server';

export const dynamic = 'force-dynamic';

const Query = z.object({ q: z.string().max(100).optional().default(''), take: z.coerce.number().int().min(1).max(20).default(12) });

export type { PlaygroundSkillOption };

export const GET = withApi({}, async ({ req }) => {
  const url = new URL(req.url);
  const query = Query.parse({ q: url.searchParams.get('q') ?? undefined, take: url.searchParams.get('take') ?? undefined });
  const options = await listPlaygroundSkills(serverContext().db, query);
  return NextResponse.json(options, { headers: { 'Cache-Control': 'no-store' } });
});
