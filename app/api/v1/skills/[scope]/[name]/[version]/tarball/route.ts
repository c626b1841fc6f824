// GET /api/v1/skills/{scope}/{name}/{version}/tarball: the version's .tar.gz, with its
// integrity in X-Skillyard-Integrity (npm's sha512 SRI form). Counts a download.
import { serverContext } from '@/lib/server';
import { handleRoute } from '@/lib/api/handle-route';
import { downloadVersion } from '@/lib/registry/download-version';
import { VersionParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

export const GET = handleRoute<{ scope: string; name: string; version: string }>(async ({ params, principal }) => {
  const ref = VersionParams.parse(params);
  const dl = await downloadVersion(serverContext().db, { scope: ref.scope, name: ref.name, spec: ref.version }, principal ? { userId: principal.userId } : null);
  const headers: Record<string, string> = {
    'content-type': 'application/gzip',
    'content-length': String(dl.tarball.byteLength),
    'content-disposition': `attachment; filename="${dl.scope}-${dl.name}-${dl.version}.tgz"`,
    'x-skillyard-integrity': dl.integrity,
    'x-skillyard-version': dl.version,
    'cache-control': 'private, no-store',
  };
  if (dl.yanked) headers['x-skillyard-yanked'] = '1';
  if (dl.deprecated) headers['x-skillyard-deprecated'] = encodeURIComponent(dl.deprecated);
  return new Response(Buffer.from(dl.tarball), { status: 200, headers });
});
