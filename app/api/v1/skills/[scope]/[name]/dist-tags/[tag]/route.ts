// PUT /api/v1/skills/{scope}/{name}/dist-tags/{tag} {version}: point a tag at a version.
// DELETE: remove the tag (not `latest`).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api/with-api';
import { requireUser } from '@/lib/api/principal';
import { setDistTag } from '@/lib/registry/set-dist-tag';
import { SkillParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string; tag: string };
const Params = SkillParams.extend({ tag: z.string().min(1).max(32) });

const Body = z.object({ version: z.string().min(1).max(64) });

export const PUT = withApi<P, z.infer<typeof Body>>({ scope: 'publish', body: Body }, async ({ params, body, principal }) => {
  const userId = requireUser(principal);
  const ref = Params.parse(params);
  return NextResponse.json(await setDistTag(serverContext().db, { ...ref, version: body.version, userId }));
});

export const DELETE = withApi<P>({ scope: 'publish' }, async ({ params, principal }) => {
  const userId = requireUser(principal);
  const ref = Params.parse(params);
  return NextResponse.json(await setDistTag(serverContext().db, { ...ref, version: null, userId }));
});
