// GET /api/v1/skills/{scope}/{name}/{version}/tarball: the version's .tar.gz, with its
// integrity in X-Skillyard-Integrity (npm's sha512 SRI form). Counts a download, once
// per caller (user, else client address) per version per day. The body streams from
// storage as the client reads it, and the download counts against the caller's requests
// in progress until its body has been sent or the client went away.
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api/with-api';
import { rateKeyOf } from '@/lib/api/principal';
import { downloadVersion } from '@/lib/registry/download-version';
import { VersionParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ scope: string; name: string; version: string }>({ concurrency: 'response' }, async ({ params, userId, caller }) => {
  const ref = VersionParams.parse(params);
  const callerKey = rateKeyOf(caller.principal, caller.ip).key;
  const dl = await downloadVersion(serverContext().db, { scope: ref.scope, name: ref.name, spec: ref.version }, userId ? { userId } : null, callerKey);
  const headers: Record<string, string> = {
    'content-type': 'application/gzip',
    // the length, as Next.js drops Content-Length from a streamed body (sent chunked)
    'x-skillyard-size': String(dl.size),
    'content-disposition': `attachment; filename="${dl.scope}-${dl.name}-${dl.version}.tgz"`,
    'x-skillyard-integrity': dl.integrity,
    'x-skillyard-version': dl.version,
    'cache-control': 'private, no-store',
  };
  if (dl.yanked) headers['x-skillyard-yanked'] = '1';
  if (dl.deprecated) headers['x-skillyard-deprecated'] = encodeURIComponent(dl.deprecated);
  return new Response(dl.body, { status: 200, headers });
});
