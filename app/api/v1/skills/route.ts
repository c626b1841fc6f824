// GET /api/v1/skills: search. POST /api/v1/skills: publish a version (the body is the
// package as .tar.gz, .zip or one skill file; Bearer token with the `publish` scope).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { AppError } from '@/lib/errors';
import { withApi, apiActor, readBodyBytes } from '@/lib/api';
import { auditScopeAction } from '@/lib/teams';
import { publishGrantOf } from '@/lib/trusted-publishing';
import { searchSkills, parseSearchParams, publishPackage, previewPackage, uploadLimits } from '@/lib/registry';
import { privateScopesOf } from '@/lib/authz';
import { isTrustedPublishToken, requireUser } from '@/lib/principal';

export const dynamic = 'force-dynamic';

export const GET = withApi({}, async ({ req, principal }) => {
  const { db } = serverContext();
  // a signed-in caller (session or token) also finds the private skills of their scope and teams
  const viewerScopes = principal.kind === 'anonymous' ? [] : await privateScopesOf(db, principal.userId);
  const result = await searchSkills(db, { ...parseSearchParams(new URL(req.url)), viewerScopes });
  return NextResponse.json(result);
});

const PublishQuery = z.object({
  scope: z.string().max(65).optional(),
  tag: z.string().max(32).optional(),
  version: z.string().max(64).optional(),
  filename: z.string().max(200).optional(),
  dryRun: z.enum(['1', 'true', '0', 'false']).optional(),
  visibility: z.enum(['public', 'unlisted', 'private']).optional(),
});

export const POST = withApi({ scope: 'publish', trustedPublish: true, rateLimit: { cost: 5 } }, async (ctx) => {
  const { req, principal } = ctx;
  const userId = requireUser(principal);
  const url = new URL(req.url);
  const query = PublishQuery.parse(Object.fromEntries(url.searchParams));
  // a trusted publisher's CI token (docs/trust.md): its one skill, recording its provenance
  const grant = isTrustedPublishToken(principal) ? await publishGrantOf(serverContext().db, principal.tokenId) : null;
  // it publishes versions; whether the skill is public stays its owners' choice (a private skill's CI must not publish it to everyone)
  if (grant && query.visibility) throw new AppError('publish/not-trusted-for-skill', 'A trusted publishing token publishes versions only; change the visibility with your own sign-in.');
  const max = uploadLimits().maxPackageBytes;
  const bytes = await readBodyBytes(req, max, () => new AppError('publish/too-large', `The upload is larger than the package limit (maxPackageBytes = ${max} bytes).`));
  if (bytes.byteLength === 0) throw new AppError('publish/empty', 'The request body must be the package (.tar.gz, .zip or one .skill.md/.skill.js/.skill.ts file).');
  const changelogHeader = req.headers.get('x-skillyard-changelog');
  const input = {
    upload: { kind: 'bytes' as const, bytes, fileName: query.filename },
    userId,
    scope: grant ? grant.scope : query.scope,
    version: query.version,
  };
  if (query.dryRun === '1' || query.dryRun === 'true') {
    const { packageFiles: _files, ...preview } = await previewPackage(serverContext().db, input);
    return NextResponse.json({ dryRun: true, ...preview });
  }
  const { published, preview } = await publishPackage(serverContext().db, {
    ...input,
    tag: query.tag,
    changelog: changelogHeader ? decodeURIComponent(changelogHeader).slice(0, 20_000) : null,
    visibility: query.visibility,
    ...(grant ? { onlySkill: { scope: grant.scope, name: grant.name }, provenance: grant.provenance } : {}),
  });
  await auditScopeAction(serverContext().db, published.scope, apiActor(ctx), 'skill.publish', `@${published.scope}/${published.name}@${published.version}`, {
    tag: published.tag,
    ...(query.visibility ? { visibility: query.visibility } : {}),
    ...(grant ? { trustedPublisher: grant.provenance.repository, commit: grant.provenance.commit, workflow: grant.provenance.workflow } : {}),
  });
  const path = `/skills/${published.scope}/${published.name}`;
  return NextResponse.json(
    {
      scope: published.scope,
      name: published.name,
      version: published.version,
      tag: published.tag,
      tagged: published.tagged,
      integrity: published.integrity,
      sizeBytes: published.sizeBytes,
      url: new URL(`${path}?version=${encodeURIComponent(published.version)}`, url.origin).toString(),
      tarball: new URL(`/api/v1/skills/${published.scope}/${published.name}/${published.version}/tarball`, url.origin).toString(),
      diagnostics: preview.diagnostics,
      findings: published.findings,
      ...(grant ? { provenance: grant.provenance } : {}),
    },
    { status: 201 },
  );
});
