// GET /api/v1/skills/{scope}/{name}/{version}/tarball: the version's .tar.gz, with its
// integrity in X-Skillyard-Integrity (npm's sha512 SRI form). Counts a download, once
// per caller (user, else client address) per version per day. The body streams from
// the package store as the client reads it, and the download counts against the caller's
// requests in progress until its body has been sent or the client went away.
// An exact version of a public skill never changes: it is served with a strong ETag (from
// its integrity) and `Cache-Control: public, max-age=31536000, immutable`, so a cache or
// CDN in front may keep it; a tag or range (`latest`, `^1`) is revalidated each time, and
// a private skill's tarball is never stored by a shared cache. If-None-Match answers 304,
// a Range header 206 (or 416 when it starts past the end).
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { downloadVersion, parseRange, VersionParams } from '@/lib/registry';
import { rateKeyOf } from '@/lib/principal';

export const dynamic = 'force-dynamic';

/** a strong validator from the integrity: the same bytes always have the same tag */
const etagOf = (integrity: string) => `"${Buffer.from(integrity.replace(/^sha512-/, ''), 'base64').subarray(0, 24).toString('base64url')}"`;

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export const GET = withApi<{ scope: string; name: string; version: string }>({ concurrency: 'response' }, async ({ req, params, userId, caller }) => {
  const ref = VersionParams.parse(params);
  const callerKey = rateKeyOf(caller.principal, caller.ip).key;
  const conditional = req.headers.get('if-none-match');
  // a revalidation that ends in 304 is not a download: count only bodies sent
  const dl = await downloadVersion(serverContext().db, { scope: ref.scope, name: ref.name, spec: ref.version }, userId ? { userId } : null, conditional ? null : callerKey);
  const etag = etagOf(dl.integrity);
  const headers: Record<string, string> = {
    etag,
    'accept-ranges': 'bytes',
    'x-skillyard-integrity': dl.integrity,
    'x-skillyard-version': dl.version,
    'cache-control': !dl.public ? 'private, no-store' : dl.exact ? 'public, max-age=31536000, immutable' : 'public, no-cache',
  };
  if (!dl.public) headers.vary = 'Cookie, Authorization';
  if (dl.yanked) headers['x-skillyard-yanked'] = '1';
  if (dl.deprecated) headers['x-skillyard-deprecated'] = encodeURIComponent(dl.deprecated);
  if (matches(conditional, etag)) return new Response(null, { status: 304, headers });
  Object.assign(headers, {
    'content-type': 'application/gzip',
    'content-disposition': `attachment; filename="${dl.scope}-${dl.name}-${dl.version}.tgz"`,
  });
  const asked = parseRange(req.headers.get('range'), dl.size);
  if (asked.kind === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${dl.size}` } });
  if (asked.kind === 'range') {
    const { start, end } = asked.range;
    headers['content-range'] = `bytes ${start}-${end}/${dl.size}`;
    headers['x-skillyard-size'] = String(end - start + 1);
    return new Response(dl.open(asked.range), { status: 206, headers });
  }
  // the length, as Next.js drops Content-Length from a streamed body (sent chunked)
  headers['x-skillyard-size'] = String(dl.size);
  return new Response(dl.open(), { status: 200, headers });
});
