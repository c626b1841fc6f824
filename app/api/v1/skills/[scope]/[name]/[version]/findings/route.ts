// GET /api/v1/skills/{scope}/{name}/{version}/findings: the version's scan findings, each
// with the rule, the matched text in context, why it matters and its newest review, plus
// every review (the log). POST {rule, file, line, reason}: the scope's owner (or a team
// publisher) marks one finding as reviewed; kept in the team's audit log too.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, apiActor } from '@/lib/api';
import { getVersionFindings, reviewFinding, VersionParams } from '@/lib/registry';
import { requireUser } from '@/lib/principal';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string; version: string };

export const GET = withApi<P>({}, async ({ params, userId }) => {
  const ref = VersionParams.parse(params);
  return NextResponse.json(await getVersionFindings(serverContext().db, ref, userId ? { userId } : null));
});

const Body = z.object({
  rule: z.string().min(1).max(100),
  file: z.string().min(1).max(1000),
  line: z.number().int().min(1).max(10_000_000),
  reason: z.string().trim().min(10, 'say why in at least 10 characters').max(1000),
});

export const POST = withApi<P, z.infer<typeof Body>>({ scope: 'publish', body: Body }, async (ctx) => {
  const { params, body, principal } = ctx;
  const userId = requireUser(principal);
  const ref = VersionParams.parse(params);
  const review = await reviewFinding(serverContext().db, { ...ref, ...body, userId }, apiActor(ctx));
  return NextResponse.json({ review }, { status: 201 });
});
