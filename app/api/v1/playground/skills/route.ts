// Skill picker of the playground: public skills matching `?q=`, with their tool names,
// so the form can suggest an allowed-tools spec. Read-only, nothing private.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { db } from '@/lib/db/client';
import { handleRoute } from '@/lib/api/handle-route';
import { listSkills } from '@/lib/registry/list-skills';
import { getSkill } from '@/lib/registry/get-skill';

export const dynamic = 'force-dynamic';

const Query = z.object({ q: z.string().max(100).optional().default(''), take: z.coerce.number().int().min(1).max(20).default(12) });

export type PlaygroundSkillOption = { scope: string; name: string; description: string; format: string; tools: string[] };

export const GET = handleRoute(async ({ req }) => {
  const url = new URL(req.url);
  const query = Query.parse({ q: url.searchParams.get('q') ?? undefined, take: url.searchParams.get('take') ?? undefined });
  const skills = (await listSkills(db(), { q: query.q })).slice(0, query.take);
  const options: PlaygroundSkillOption[] = await Promise.all(
    skills.map(async (s) => {
      const detail = await getSkill(db(), { scope: s.scope, name: s.name }).catch(() => null);
      return {
        scope: s.scope,
        name: s.name,
        description: s.description,
        format: s.format,
        tools: detail?.manifest.tools.filter((t) => t.visibility !== 'hidden').map((t) => t.name) ?? [],
      };
    }),
  );
  return NextResponse.json(options, { headers: { 'Cache-Control': 'no-store' } });
});
