// POST /api/v1/publish/oidc/token {token, skill}: a CI job's OIDC token (issued for this
// registry's audience) for a short-lived API token that publishes that one skill, when the
// skill's owner configured a trusted publisher its claims match (docs/trust.md).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { parseSkillRef } from '@/lib/registry';
import { exchangeCiToken } from '@/lib/trusted-publishing';

export const dynamic = 'force-dynamic';

const Body = z.object({ token: z.string().min(20).max(8192), skill: z.string().min(3).max(140) });

export const POST = withApi({ body: Body, maxBodyBytes: 16 * 1024, rateLimit: { cost: 5 } }, async ({ body }) => {
  const ref = parseSkillRef(body.skill);
  const out = await exchangeCiToken(serverContext().db, { token: body.token, scope: ref.scope, name: ref.name });
  return NextResponse.json(out, { status: 201 });
});
