// GET …/tarball counts a download once per caller (the user, else the client address) per
// version per day: a script fetching one tarball in a loop moves the ranking by one. The
// dedupe lives in Postgres (DownloadCaller), so it holds across instances and batches.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from './db';
import { readUpload } from '../lib/registry/read-upload';
import { publishVersion } from '../lib/registry/publish-version';
import { createApiToken } from '../lib/auth/api-tokens';
import { countDownload, flushDownloadCounts } from '../lib/registry/count-download';

process.env.SKILLYARD_SECRET_KEY ??= 'f'.repeat(64);

type Route = (req: Request, ctx: { params: Promise<{ scope: string; name: string; version: string }> }) => Promise<Response>;
let GET: Route;
const scope = `dl${Date.now().toString(36)}`;
let token = '';

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  ({ GET } = (await import('../app/api/v1/skills/[scope]/[name]/[version]/tarball/route')) as unknown as { GET: Route });
  const db = testDb();
  const u = await db.user.create({ data: { handle: scope, name: scope } });
  await db.scope.create({ data: { name: scope, kind: 'user', userId: u.id } });
  token = (await createApiToken(db, { userId: u.id, name: 'dl', scopes: ['invoke'] })).token;
  const md = '---\nname: counted\ndescription: Counted once per caller.\nversion: 1.0.0\n---\nHello.\n';
  const pkg = readUpload({ kind: 'files', files: [{ path: 'counted/SKILL.md', content: new TextEncoder().encode(md) }] });
  const v = await publishVersion(db, { scope, manifest: pkg.manifest!, files: pkg.files, version: '1.0.0', visibility: 'public' });
  // rows of days past: the first batch of the day sweeps what is older than yesterday
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await db.downloadCaller.createMany({
    data: [
      { versionId: v.versionId, day: new Date('2020-01-01'), caller: 'old' },
      { versionId: v.versionId, day: new Date(yesterday), caller: 'yesterday' },
    ],
  });
});

async function download(ip: string, bearer?: string) {
  const headers: Record<string, string> = { 'x-forwarded-for': ip };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await GET(new Request(`http://127.0.0.1/api/v1/skills/${scope}/counted/1.0.0/tarball`, { headers }), {
    params: Promise.resolve({ scope, name: 'counted', version: '1.0.0' }),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

async function counts() {
  await flushDownloadCounts();
  const skill = await testDb().skill.findUniqueOrThrow({
    where: { scopeName_name: { scopeName: scope, name: 'counted' } },
    select: { id: true, downloads: true, versions: { select: { downloads: true } } },
  });
  const search = await testDb().$queryRaw<Array<{ downloads: number }>>`SELECT downloads FROM "SkillSearch" WHERE "skillId" = ${skill.id}`;
  return { skill: skill.downloads, version: skill.versions[0].downloads, search: search[0]?.downloads };
}

describe('tarball download counts', () => {
  it('count one download per caller per day, however often it asks', async () => {
    for (let i = 0; i < 8; i++) await download('198.51.100.7');
    expect(await counts()).toEqual({ skill: 1, version: 1, search: 1 });
    expect((await testDb().downloadCaller.findMany({ where: { caller: { in: ['old', 'yesterday'] } }, select: { caller: true } })).map((r) => r.caller)).toEqual(['yesterday']);
    // another batch, as another instance would write it: still the same caller today
    await download('198.51.100.7');
    expect((await counts()).skill).toBe(1);
    await download('198.51.100.8');
    // one IPv6 /64 is one caller
    await download('2001:db8:1:2::1');
    await download('2001:db8:1:2::ffff');
    // a signed-in caller counts as themselves, wherever they come from
    await download('198.51.100.7', token);
    await download('203.0.113.50', token);
    expect(await counts()).toEqual({ skill: 4, version: 4, search: 4 });
    expect(await testDb().downloadCaller.count({ where: { caller: { contains: '198.51.100' } } })).toBe(0);
    // written without being asked to, right after the response
    await download('198.51.100.9');
    const row = () => testDb().skill.findUniqueOrThrow({ where: { scopeName_name: { scopeName: scope, name: 'counted' } }, select: { downloads: true } });
    await expect.poll(async () => (await row()).downloads, { timeout: 10_000 }).toBe(5);
  });

  it('counts the same caller again the next day', async () => {
    const v = await testDb().skillVersion.findFirstOrThrow({ where: { skill: { scopeName: scope, name: 'counted' } }, select: { id: true } });
    const before = (await counts()).version;
    const tomorrow = new Date(Date.now() + 86_400_000);
    countDownload(testDb(), { versionId: v.id, callerKey: 'ip:198.51.100.7' }, tomorrow);
    countDownload(testDb(), { versionId: v.id, callerKey: 'ip:198.51.100.7' }, tomorrow);
    expect((await counts()).version).toBe(before + 1);
  });
});
