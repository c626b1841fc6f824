// GET /api/v1/skills/{scope}/{name}/{version}/tarball: the version's .tar.gz, with its
// integrity in X-Skillyard-Integrity (npm's sha512 SRI form). Counts a download.
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api/with-api';
import { downloadVersion } from '@/lib/registry/download-version';
import { VersionParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ scope: string; name: string; version: string }>({}, async ({ params, userId }) => {
  const ref = VersionParams.parse(params);
  const dl = await downloadVersion(serverContext().db, { scope: ref.scope, name: ref.name, spec: ref.version }, userId ? { userId } : null);
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
  // the bytes as they are (a 50 MB tarball is not copied once more)
  return new Response(dl.tarball as Uint8Array<ArrayBuffer>, { status: 200, headers });
});
