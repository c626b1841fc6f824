import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'fflate';
import { testDb } from '../../test/db';
import { publishVersion } from './publish-version';
import { readUpload } from './read-upload';
import { resolveVersion } from './resolve-version';
import { yankVersion } from './yank-version';
import { deprecateVersion } from './deprecate-version';
import { setDistTag } from './set-dist-tag';
import { deleteVersion } from './delete-version';
import { downloadVersion } from './download-version';
import { flushDownloadCounts } from './count-download';
import { readAll } from './package-store';
import { listVersions } from './list-versions';
import { starSkill } from './star-skill';
import { checkIntegrity, packTarball } from './package-tarball';
import { searchSkills } from './search-skills';

const enc = new TextEncoder();
const skillMd = (name: string, body = 'Say hello politely.', description = `A test skill called ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${body}\n`;

/** A folder package read the way an upload is read. */
function upload(name: string, body?: string, extra: Array<{ path: string; content: string }> = [], description?: string) {
  const files = [
    { path: `${name}/SKILL.md`, content: enc.encode(skillMd(name, body, description)) },
    ...extra.map((f) => ({ path: `${name}/${f.path}`, content: enc.encode(f.content) })),
  ];
  const pkg = readUpload({ kind: 'files', files });
  if (!pkg.manifest) throw new Error(JSON.stringify(pkg.diagnostics));
  return { manifest: pkg.manifest, files: pkg.files };
}

let carol = '';
let dave = '';

async function user(handle: string) {
  const db = testDb();
  const u = await db.user.upsert({ where: { handle }, create: { handle, name: handle }, update: {} });
  await db.scope.upsert({ where: { name: handle }, create: { name: handle, kind: 'user', userId: u.id }, update: {} });
  return u.id;
}

async function publish(name: string, version: string, opts: { tag?: string; body?: string } = {}) {
  const { manifest, files } = upload(name, opts.body);
  return publishVersion(testDb(), { scope: 'carol', manifest, files, version, tag: opts.tag, publishedById: carol });
}

const skillRow = (name: string) => testDb().skill.findUniqueOrThrow({ where: { scopeName_name: { scopeName: 'carol', name } } });

beforeAll(async () => {
  carol = await user('carol');
  dave = await user('dave');
});

describe('versions', () => {
  it('never reuses a number: not after a yank, not after a deletion', async () => {
    await publish('reuse', '1.0.0');
    await publish('reuse', '1.1.0');
    await expect(publish('reuse', '1.0.0', { body: 'changed' })).rejects.toMatchObject({ code: 'publish/version-exists', status: 409 });
    await yankVersion(testDb(), { scope: 'carol', name: 'reuse', version: '1.1.0', userId: carol });
    await expect(publish('reuse', '1.1.0')).rejects.toMatchObject({ code: 'publish/version-exists' });
    await deleteVersion(testDb(), { scope: 'carol', name: 'reuse', version: '1.0.0', userId: carol });
    await expect(publish('reuse', '1.0.0')).rejects.toMatchObject({ code: 'publish/version-exists' });
    // even deleting the whole skill does not free its numbers
    await testDb().skill.delete({ where: { scopeName_name: { scopeName: 'carol', name: 'reuse' } } });
    await expect(publish('reuse', '1.1.0')).rejects.toMatchObject({ code: 'publish/version-exists' });
    await expect(publish('reuse', '1.2.0')).resolves.toMatchObject({ version: '1.2.0' });
  });

  it('refuses a version that is not semver', async () => {
    await expect(publish('badver', 'v1')).rejects.toMatchObject({ code: 'publish/invalid-version', status: 400 });
    await expect(publish('badver', '1.0')).rejects.toMatchObject({ code: 'publish/invalid-version' });
  });

  it('two concurrent publishes of one version: one wins, the other gets version-exists', async () => {
    for (const name of ['race-new', 'race-old']) {
      if (name === 'race-old') await publish(name, '0.9.0');
      const results = await Promise.allSettled([publish(name, '1.0.0', { body: 'one' }), publish(name, '1.0.0', { body: 'two' })]);
      const ok = results.filter((r) => r.status === 'fulfilled');
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(ok).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect(failed[0].reason).toMatchObject({ code: 'publish/version-exists' });
      expect(await testDb().skillVersion.count({ where: { version: '1.0.0', skill: { scopeName: 'carol', name } } })).toBe(1);
    }
  });

  it('resolves exact numbers, tags and ranges; yanked versions leave ranges and listings but download by number', async () => {
    for (const v of ['1.0.0', '1.2.0', '1.3.0', '2.0.0-beta.1']) await publish('ranges', v);
    const skill = await skillRow('ranges');
    const r = (spec?: string) => resolveVersion(testDb(), skill, spec).then((x) => x.version);
    expect(await r()).toBe('1.3.0'); // a prerelease does not take latest
    expect(await r('next')).toBe('2.0.0-beta.1');
    expect(await r('^1.0.0')).toBe('1.3.0');
    expect(await r('~1.2')).toBe('1.2.0');
    expect(await r('1.0.0')).toBe('1.0.0');
    await expect(r('^3')).rejects.toMatchObject({ code: 'skill/version-not-found', status: 404 });
    await expect(r('nosuchtag')).rejects.toMatchObject({ code: 'skill/version-not-found' });

    await yankVersion(testDb(), { scope: 'carol', name: 'ranges', version: '1.3.0', userId: carol, reason: 'broken' });
    expect(await r('^1.0.0')).toBe('1.2.0');
    expect(await r()).toBe('1.2.0'); // latest moved back
    const exact = await resolveVersion(testDb(), skill, '1.3.0');
    expect(exact).toMatchObject({ version: '1.3.0', yanked: true });
    const dl = await downloadVersion(testDb(), { scope: 'carol', name: 'ranges', spec: '1.3.0' }, null);
    expect(dl.yanked).toBe(true);
    const listed = await listVersions(testDb(), { scope: 'carol', name: 'ranges' }, null);
    expect(listed.versions.map((v) => v.version)).toEqual(['2.0.0-beta.1', '1.2.0', '1.0.0']);
    const all = await listVersions(testDb(), { scope: 'carol', name: 'ranges' }, null, { includeYanked: true });
    expect(all.versions.find((v) => v.version === '1.3.0')).toMatchObject({ yanked: true, yankReason: 'broken' });
    expect(all.distTags).toEqual({ latest: '1.2.0', next: '2.0.0-beta.1' });

    // a lower version published later does not take latest; an explicit tag moves
    await publish('ranges', '1.2.1');
    expect(await r()).toBe('1.2.1');
    await publish('ranges', '1.0.1');
    expect(await r()).toBe('1.2.1');
    await setDistTag(testDb(), { scope: 'carol', name: 'ranges', tag: 'latest', version: '1.0.1', userId: carol });
    expect(await r()).toBe('1.0.1');
    await expect(setDistTag(testDb(), { scope: 'carol', name: 'ranges', tag: 'latest', version: '1.3.0', userId: carol })).rejects.toMatchObject({
      code: 'publish/version-yanked',
    });
    await expect(setDistTag(testDb(), { scope: 'carol', name: 'ranges', tag: '^1', version: '1.0.1', userId: carol })).rejects.toMatchObject({
      code: 'input/invalid-tag',
    });
    await yankVersion(testDb(), { scope: 'carol', name: 'ranges', version: '1.3.0', userId: carol, undo: true });
    expect(await r('^1.0.0')).toBe('1.3.0');
  });

  it('only the scope owner yanks, tags, deprecates or deletes', async () => {
    await publish('guarded', '1.0.0');
    const forbidden = { code: 'publish/forbidden', status: 403 };
    await expect(yankVersion(testDb(), { scope: 'carol', name: 'guarded', version: '1.0.0', userId: dave })).rejects.toMatchObject(forbidden);
    await expect(deprecateVersion(testDb(), { scope: 'carol', name: 'guarded', range: '*', message: 'x', userId: dave })).rejects.toMatchObject(forbidden);
    await expect(setDistTag(testDb(), { scope: 'carol', name: 'guarded', tag: 'beta', version: '1.0.0', userId: dave })).rejects.toMatchObject(forbidden);
    await expect(deleteVersion(testDb(), { scope: 'carol', name: 'guarded', version: '1.0.0', userId: dave })).rejects.toMatchObject(forbidden);
    expect((await testDb().skillVersion.findFirstOrThrow({ where: { skill: { name: 'guarded' } } })).yankedAt).toBeNull();
  });

  it('deprecates a range with a message and takes it back with an empty one', async () => {
    for (const v of ['1.0.0', '1.1.0', '2.0.0']) await publish('old-news', v);
    const out = await deprecateVersion(testDb(), { scope: 'carol', name: 'old-news', range: '<2', message: 'Use 2.x: 1.x leaks memory', userId: carol });
    expect(out.versions.sort()).toEqual(['1.0.0', '1.1.0']);
    const dl = await downloadVersion(testDb(), { scope: 'carol', name: 'old-news', spec: '1.1.0' }, null);
    expect(dl.deprecated).toBe('Use 2.x: 1.x leaks memory');
    expect((await downloadVersion(testDb(), { scope: 'carol', name: 'old-news' }, null)).deprecated).toBeNull();
    await deprecateVersion(testDb(), { scope: 'carol', name: 'old-news', range: '1.1.0', message: '', userId: carol });
    expect((await resolveVersion(testDb(), await skillRow('old-news'), '1.1.0')).deprecated).toBeNull();
  });

  it('stores a deterministic tarball with an npm-style integrity, counts downloads, keeps the changelog', async () => {
    const changelog = '# Changelog\n\n## 1.0.0\n\n- First release.\n\n## 0.9.0\n\n- Beta.\n';
    const { manifest, files } = upload('packed', undefined, [{ path: 'CHANGELOG.md', content: changelog }]);
    const out = await publishVersion(testDb(), { scope: 'carol', manifest, files, version: '1.0.0' });
    expect(out.integrity).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/);
    const dl = await downloadVersion(testDb(), { scope: 'carol', name: 'packed', spec: '^1' }, null, 'ip:192.0.2.1');
    const tarball = await readAll(dl.open());
    expect(dl.size).toBe(tarball.byteLength);
    expect(checkIntegrity(tarball, out.integrity)).toBe(true);
    expect(tarball).toEqual(packTarball(files, 'packed'));
    const tar = new TextDecoder().decode(gunzipSync(tarball));
    expect(tar).toContain('packed/SKILL.md');
    // the tarball reads back into the same package
    const again = readUpload({ kind: 'bytes', bytes: tarball });
    expect(again.files.map((f) => f.path).sort()).toEqual(['CHANGELOG.md', 'SKILL.md']);
    expect(again.manifest?.name).toBe('packed');
    await downloadVersion(testDb(), { scope: 'carol', name: 'packed' }, null, 'ip:192.0.2.2');
    await flushDownloadCounts();
    expect((await skillRow('packed')).downloads).toBe(2);
    const { versions } = await listVersions(testDb(), { scope: 'carol', name: 'packed' }, null);
    expect(versions[0]).toMatchObject({ version: '1.0.0', downloads: 2, changelog: '- First release.', tags: ['latest'] });
  });

  it('a version stored before tarball parts downloads from its column, and the backfill migration moves it into parts', async () => {
    const { manifest, files } = upload('legacy-tgz');
    const out = await publishVersion(testDb(), { scope: 'carol', manifest, files, version: '1.0.0' });
    const whole = packTarball(files, 'legacy-tgz');
    // as an older version was stored: the whole tarball in the column, no parts
    await testDb().tarballPart.deleteMany({ where: { versionId: out.versionId } });
    await testDb().skillVersion.update({ where: { id: out.versionId }, data: { tarball: new Uint8Array(whole) } });
    const before = await downloadVersion(testDb(), { scope: 'carol', name: 'legacy-tgz' }, null);
    expect(Buffer.from(await readAll(before.open())).equals(Buffer.from(whole))).toBe(true);
    const sql = readFileSync(path.join(import.meta.dirname, '../../prisma/migrations/20261126093000_tarball_parts_backfill/migration.sql'), 'utf8');
    for (const statement of sql
      .replace(/--.*$/gm, '')
      .split(';')
      .map((x) => x.trim())
      .filter(Boolean))
      await testDb().$executeRawUnsafe(statement);
    expect(await testDb().tarballPart.count({ where: { versionId: out.versionId } })).toBe(Math.ceil(whole.byteLength / 1_000_000));
    expect((await testDb().skillVersion.findUnique({ where: { id: out.versionId }, select: { tarball: true } }))?.tarball).toBeNull();
    const after = await downloadVersion(testDb(), { scope: 'carol', name: 'legacy-tgz' }, null);
    const afterBytes = await readAll(after.open());
    expect(checkIntegrity(afterBytes, out.integrity)).toBe(true);
    expect(Buffer.from(afterBytes).equals(Buffer.from(whole))).toBe(true);
  });

  it('counts stars once per user', async () => {
    await publish('starry', '1.0.0');
    await starSkill(testDb(), { scope: 'carol', name: 'starry' }, dave, true);
    await starSkill(testDb(), { scope: 'carol', name: 'starry' }, dave, true);
    expect((await starSkill(testDb(), { scope: 'carol', name: 'starry' }, carol, true)).stars).toBe(2);
    expect((await starSkill(testDb(), { scope: 'carol', name: 'starry' }, dave, false)).stars).toBe(1);
  });
});

describe('upload limits', () => {
  const file = (path: string, content = 'x') => ({ path, content: enc.encode(content) });
  it('names the limit that an upload breaks', () => {
    // a file that is parsed (SKILL.md) is held to maxFileBytes; an asset only to the package limits
    const skillMd = file('a/SKILL.md', `---\nname: a\ndescription: d\n---\n${'x'.repeat(2048)}`);
    expect(readUpload({ kind: 'files', files: [skillMd] }, { limits: { maxFileBytes: 1024 } }).diagnostics).toEqual(
      expect.arrayContaining([expect.objectContaining({ severity: 'error', code: 'file/too-large', message: expect.stringContaining('the limit for one file is 1024') })]),
    );
    const font = { path: 'a/fonts/inter.woff2', content: new Uint8Array(4096) };
    const withFont = readUpload({ kind: 'files', files: [file('a/SKILL.md', '---\nname: a\ndescription: d\n---\nbody'), font] }, { limits: { maxFileBytes: 1024 } });
    expect(withFont.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(withFont.files.map((f) => f.path).sort()).toEqual(['SKILL.md', 'fonts/inter.woff2']);
    const many = Array.from({ length: 11 }, (_, i) => file(`a/f${i}.txt`));
    expect(() => readUpload({ kind: 'files', files: many }, { limits: { maxPackageFiles: 10 } })).toThrow(/maxPackageFiles = 10/);
    expect(() => readUpload({ kind: 'files', files: [file('../evil/SKILL.md')] })).toThrow(expect.objectContaining({ code: 'publish/unsafe-path' }));
    expect(() => readUpload({ kind: 'bytes', bytes: new Uint8Array(4096) }, { limits: { maxPackageBytes: 1000 } })).toThrow(
      expect.objectContaining({ code: 'publish/too-large', status: 413 }),
    );
  });

  it('stops an archive bomb at the byte limit', async () => {
    const { gzipSync } = await import('fflate');
    // 8 MB of zeros in eight files compresses to a few KB
    const files = Array.from({ length: 8 }, (_, i) => ({ path: `f${i}.bin`, content: new Uint8Array(1024 * 1024 - 1) }));
    const tgz = gzipSync(new Uint8Array(gunzipSync(packTarball(files, 'bomb'))));
    expect(tgz.byteLength).toBeLessThan(100_000);
    expect(() => readUpload({ kind: 'bytes', bytes: tgz }, { limits: { maxArchiveBytes: 4 * 1024 * 1024 } })).toThrow(
      expect.objectContaining({ code: 'publish/too-large', message: expect.stringContaining('maxArchiveBytes') }),
    );
  });

  it('refuses a link inside an archive', () => {
    // a ustar symlink entry built by hand
    const tgz = packTarball([{ path: 'SKILL.md', content: enc.encode(skillMd('linky')) }], 'linky');
    const tar = gunzipSync(tgz);
    const link = new Uint8Array(512);
    link.set(enc.encode('linky/evil'), 0);
    link.set(enc.encode('0000644\0'), 100);
    link.set(enc.encode('00000000000\0'), 124);
    link[156] = 50; // '2' symlink
    link.set(enc.encode('/etc/passwd'), 157);
    link.set(enc.encode('ustar\0'), 257);
    link.set(enc.encode('        '), 148);
    let sum = 0;
    for (const b of link) sum += b;
    link.set(enc.encode(sum.toString(8).padStart(6, '0') + '\0 '), 148);
    const withLink = new Uint8Array(tar.length + 512);
    withLink.set(link, 0);
    withLink.set(tar, 512);
    return import('fflate').then(({ gzipSync }) => {
      expect(() => readUpload({ kind: 'bytes', bytes: gzipSync(withLink) })).toThrow(expect.objectContaining({ code: 'publish/symlink' }));
    });
  });

  it('shows diagnostics with file and line and publishes nothing with errors', async () => {
    const bad = readUpload({ kind: 'files', files: [file('broken/SKILL.md', '---\nname: Broken_Name\ndescription: x\n---\nbody\n')] });
    const err = bad.diagnostics.find((d) => d.severity === 'error');
    expect(err?.file).toContain('SKILL.md');
    expect(err?.line).toBeGreaterThan(0);
    await expect(publishVersion(testDb(), { scope: 'carol', manifest: bad.manifest!, files: bad.files, version: '1.0.0' })).rejects.toMatchObject({
      code: 'publish/invalid-skill',
    });
  });
});

describe('search', () => {
  beforeAll(async () => {
    const tools = JSON.stringify([{ name: 'fetch_forecast', description: 'Fetch the weather forecast for a city', parameters: { city: { type: 'string', description: 'City' } } }]);
    const weather = upload('weather-report', 'Reports temperature and precipitation.', [{ path: 'tools.json', content: tools }]);
    await publishVersion(testDb(), { scope: 'carol', manifest: weather.manifest, files: weather.files, version: '1.0.0' });
    const recipe = upload('recipe-finder', 'Finds recipes by ingredient.');
    await publishVersion(testDb(), { scope: 'dave', manifest: recipe.manifest, files: recipe.files, version: '1.0.0' });
  });

  const names = (r: { hits: Array<{ scope: string; name: string }> }) => r.hits.map((h) => `${h.scope}/${h.name}`);

  it('finds by words, a misspelled word, a tool name and a misspelled name', async () => {
    expect(names(await searchSkills(testDb(), { q: 'weather' }))).toContain('carol/weather-report');
    const typo = await searchSkills(testDb(), { q: 'wether' });
    expect(names(typo)).toContain('carol/weather-report');
    expect(typo.corrections.wether).toContain('weather');
    expect(names(await searchSkills(testDb(), { q: 'fetch-forecast' }))).toContain('carol/weather-report');
    expect(names(await searchSkills(testDb(), { q: 'precipitation' }))).toContain('carol/weather-report');
    expect(names(await searchSkills(testDb(), { q: 'recipe findr' }))).toContain('dave/recipe-finder');
    expect(names(await searchSkills(testDb(), { q: 'zzzyyyxxx' }))).toEqual([]);
  });

  it('suggests no word that only a private skill holds', async () => {
    const secret = upload('vault-notes', 'Keep the nightingalexq ledger and the zumbrelax plans.');
    await publishVersion(testDb(), { scope: 'carol', manifest: secret.manifest, files: secret.files, version: '1.0.0', visibility: 'private' });
    const open = upload('open-notes', 'The zumbrelax plans are public.');
    await publishVersion(testDb(), { scope: 'dave', manifest: open.manifest, files: open.files, version: '1.0.0' });
    expect(Object.values((await searchSkills(testDb(), { q: 'nightingalexz' })).corrections).flat()).not.toContain('nightingalexq');
    // the same kind of typo finds a word a public skill holds
    expect((await searchSkills(testDb(), { q: 'zumbrelaz' })).corrections.zumbrelaz).toContain('zumbrelax');
  });

  it('filters, sorts and pages with a total', async () => {
    const byScope = await searchSkills(testDb(), { scope: '@dave' });
    expect(byScope.hits.every((h) => h.scope === 'dave')).toBe(true);
    expect(byScope.total).toBeGreaterThanOrEqual(1);
    const fmt = await searchSkills(testDb(), { format: 'agent-skill', perPage: 2, page: 1, sort: 'recent' });
    expect(fmt.hits.length).toBeLessThanOrEqual(2);
    expect(fmt.total).toBeGreaterThan(2);
    const page2 = await searchSkills(testDb(), { format: 'agent-skill', perPage: 2, page: 2, sort: 'recent' });
    expect(names(page2)).not.toEqual(names(fmt));
    expect(page2.total).toBe(fmt.total);
    const far = await searchSkills(testDb(), { format: 'agent-skill', perPage: 2, page: 400 });
    expect(far.hits).toEqual([]);
    expect(far.total).toBe(fmt.total);
    expect((await searchSkills(testDb(), { format: 'malv' })).hits.every((h) => h.format === 'malv')).toBe(true);
    expect((await searchSkills(testDb(), { gated: true })).hits.every((h) => h.tokenGated)).toBe(true);
    const recent = await searchSkills(testDb(), { sort: 'recent', perPage: 50 });
    const times = recent.hits.map((h) => h.publishedAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('counts matches per format in the same query, ignoring the format filter', async () => {
    const withFacets = await searchSkills(testDb(), { q: 'weather', format: 'malv', facets: true });
    const plain = await searchSkills(testDb(), { q: 'weather' });
    expect(withFacets.formatCounts?.['agent-skill']).toBeGreaterThanOrEqual(1);
    expect(withFacets.allFormatsTotal).toBe(plain.total);
    expect(plain.formatCounts).toBeUndefined();
  });

  it('shows private and unlisted skills to the scope and its teams only', async () => {
    const secret = upload('hushed-almanac', 'Keeps a private almanac.');
    await publishVersion(testDb(), { scope: 'carol', manifest: secret.manifest, files: secret.files, version: '1.0.0', visibility: 'private' });
    const found = (viewerScopes: string[]) => searchSkills(testDb(), { q: 'almanac', viewerScopes, facets: true });
    expect(names(await found([]))).not.toContain('carol/hushed-almanac');
    expect(names(await found(['dave']))).not.toContain('carol/hushed-almanac');
    // counts and facets say nothing of it either
    expect((await found(['dave'])).total).toBe((await found([])).total);
    expect((await found(['dave'])).allFormatsTotal).toBe((await found([])).allFormatsTotal);
    expect(names(await found(['carol']))).toContain('carol/hushed-almanac');
    const { listPlaygroundSkills } = await import('./list-playground-skills');
    const picker = async (viewerScopes: string[]) => (await listPlaygroundSkills(testDb(), { q: 'almanac', take: 10, viewerScopes })).map((o) => `${o.scope}/${o.name}`);
    expect(await picker(['dave'])).not.toContain('carol/hushed-almanac');
    expect(await picker(['carol'])).toContain('carol/hushed-almanac');
    const { privateScopesOf } = await import('../authz');
    expect(await privateScopesOf(testDb(), carol)).toContain('carol');
    expect(await privateScopesOf(testDb(), dave)).not.toContain('carol');
    expect(await privateScopesOf(testDb(), null)).toEqual([]);
  });

  it('ranks name matches, then description matches, then instruction-only matches (those two by downloads), across pages', async () => {
    const put = async (name: string, description: string, body: string) => {
      const u = upload(name, body, [], description);
      await publishVersion(testDb(), { scope: 'dave', manifest: u.manifest, files: u.files, version: '1.0.0' });
    };
    await put('quokka-tracker', 'Tracks animals.', 'Say hello.');
    await put('zoo-keeper', 'Feeds the quokka daily.', 'Say hello.');
    await put('wild-notes', 'Keeps notes.', 'Watch for a quokka at dawn.');
    expect(names(await searchSkills(testDb(), { q: 'quokka' }))).toEqual(['dave/quokka-tracker', 'dave/zoo-keeper', 'dave/wild-notes']);
    const pages = await Promise.all([1, 2, 3, 4].map((page) => searchSkills(testDb(), { q: 'quokka', perPage: 1, page })));
    expect(pages.map(names)).toEqual([['dave/quokka-tracker'], ['dave/zoo-keeper'], ['dave/wild-notes'], []]);
    expect(pages.map((p) => [p.total, p.totalIsCapped])).toEqual(Array(4).fill([3, false]));
    // downloads reach the search row (the "SkillSearch_copy" trigger) and order the description tier
    await put('zoo-cleaner', 'Cleans the quokka enclosure.', 'Say hello.');
    await testDb().skill.update({ where: { scopeName_name: { scopeName: 'dave', name: 'zoo-cleaner' } }, data: { downloads: 50 } });
    expect(names(await searchSkills(testDb(), { q: 'quokka' }))).toEqual(['dave/quokka-tracker', 'dave/zoo-cleaner', 'dave/zoo-keeper', 'dave/wild-notes']);
    expect(names(await searchSkills(testDb(), { q: 'quokka', sort: 'downloads' }))[0]).toBe('dave/zoo-cleaner');
    const hit = (await searchSkills(testDb(), { q: 'quokka' })).hits.find((h) => h.name === 'zoo-cleaner');
    expect(hit).toMatchObject({ downloads: 50, version: '1.0.0', toolCount: 0, description: 'Cleans the quokka enclosure.' });
    expect(hit?.publishedAt).toBeInstanceOf(Date);
    expect(Math.abs(hit!.publishedAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('leaves a skill whose every version is yanked out of search', async () => {
    await publish('vanishing', '1.0.0');
    expect(names(await searchSkills(testDb(), { q: 'vanishing' }))).toContain('carol/vanishing');
    await yankVersion(testDb(), { scope: 'carol', name: 'vanishing', version: '1.0.0', userId: carol });
    expect(names(await searchSkills(testDb(), { q: 'vanishing' }))).not.toContain('carol/vanishing');
  });
});
