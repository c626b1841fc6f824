// Downloads a cache or CDN may keep (issue 28): an exact version of a public skill has a
// strong ETag and is immutable, answers 304 to its ETag and 206 to a range; a tag is
// revalidated; a private skill's tarball is never stored by a shared cache.
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from './db';
import { createApiToken } from '../lib/auth/api-tokens';
import { publishVersion } from '../lib/registry/publish-version';
import { readUpload } from '../lib/registry/read-upload';
import { readAll } from '../lib/registry/package-store';
import { checkIntegrity } from '../lib/registry/package-tarball';

process.env.SKILLYARD_SECRET_KEY ??= 'f'.repeat(64);

type Params = { scope: string; name: string; version: string };
let route: { GET: (req: Request, ctx: { params: Promise<Params> }) => Promise<Response> };
const scope = `cache-${crypto.randomBytes(3).toString('hex')}`;
let token = '';

function upload(name: string, padding: number) {
  const skillMd = `---\nname: ${name}\ndescription: A skill whose tarball is cached.\n---\n\n# ${name}\n\nRead the notes.\n`;
  // random bytes do not compress: the tarball spans several stored parts' worth of ranges
  const notes = crypto.randomBytes(padding).toString('base64');
  const pkg = readUpload({
    kind: 'files',
    files: [
      { path: `${name}/SKILL.md`, content: new TextEncoder().encode(skillMd) },
      { path: `${name}/notes.txt`, content: new TextEncoder().encode(notes) },
    ],
  });
  if (!pkg.manifest) throw new Error(JSON.stringify(pkg.diagnostics));
  return { manifest: pkg.manifest, files: pkg.files };
}

const get = (p: Params, headers: Record<string, string> = {}) =>
  route.GET(new Request(`http://127.0.0.1/api/v1/skills/${p.scope}/${p.name}/${p.version}/tarball`, { headers: { 'x-forwarded-for': '203.0.113.50', ...headers } }), {
    params: Promise.resolve(p),
  });

let integrity = '';

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  route = await import('../app/api/v1/skills/[scope]/[name]/[version]/tarball/route');
  const user = await testDb().user.create({ data: { handle: scope, name: scope } });
  await testDb().scope.create({ data: { name: scope, kind: 'user', userId: user.id } });
  token = (await createApiToken(testDb(), { userId: user.id, name: 'cache', scopes: ['publish'] })).token;
  const pub = upload('open-book', 300_000);
  integrity = (await publishVersion(testDb(), { scope, ...pub, version: '1.0.0', publishedById: user.id })).integrity;
  const priv = upload('closed-book', 10);
  await publishVersion(testDb(), { scope, ...priv, version: '1.0.0', publishedById: user.id, visibility: 'private' });
});

describe('tarball caching', () => {
  it('an exact public version: strong ETag, immutable, 304 to its ETag, whole bytes otherwise', async () => {
    const res = await get({ scope, name: 'open-book', version: '1.0.0' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const bytes = await readAll(res.body!);
    expect(checkIntegrity(bytes, integrity)).toBe(true);
    const again = await get({ scope, name: 'open-book', version: '1.0.0' }, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get('etag')).toBe(etag);
    const other = await get({ scope, name: 'open-book', version: '1.0.0' }, { 'if-none-match': '"something-else"' });
    expect(other.status).toBe(200);
    await other.body?.cancel();
  });

  it('a range is 206 with the exact bytes, past the end 416', async () => {
    const whole = await readAll((await get({ scope, name: 'open-book', version: '1.0.0' })).body!);
    const part = await get({ scope, name: 'open-book', version: '1.0.0' }, { range: 'bytes=100-1099' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${whole.byteLength}`);
    expect(Buffer.from(await readAll(part.body!)).equals(Buffer.from(whole.subarray(100, 1100)))).toBe(true);
    const tail = await get({ scope, name: 'open-book', version: '1.0.0' }, { range: 'bytes=-10' });
    expect(Buffer.from(await readAll(tail.body!)).equals(Buffer.from(whole.subarray(whole.byteLength - 10)))).toBe(true);
    const past = await get({ scope, name: 'open-book', version: '1.0.0' }, { range: `bytes=${whole.byteLength}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${whole.byteLength}`);
  });

  it('a tag is revalidated every time, and a private skill is never cacheable', async () => {
    const latest = await get({ scope, name: 'open-book', version: 'latest' });
    expect(latest.status).toBe(200);
    expect(latest.headers.get('cache-control')).toBe('public, no-cache');
    await latest.body?.cancel();
    const hidden = await get({ scope, name: 'closed-book', version: '1.0.0' });
    expect(hidden.status).toBe(404);
    const own = await get({ scope, name: 'closed-book', version: '1.0.0' }, { authorization: `Bearer ${token}` });
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    expect(own.headers.get('cache-control')).not.toMatch(/public|immutable/);
    await own.body?.cancel();
  });
});
