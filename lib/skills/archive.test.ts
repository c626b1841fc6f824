import { gzipSync, zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readArchive } from './archive';
import { readSkillsFromFiles } from './read';

/** A minimal ustar writer for tests (names < 100 chars). */
function tar(entries: { name: string; body?: string | Uint8Array; type?: string; link?: string }[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const e of entries) {
    const body = typeof e.body === 'string' ? strToU8(e.body) : (e.body ?? new Uint8Array());
    const h = new Uint8Array(512);
    const put = (s: string, off: number) => h.set(strToU8(s), off);
    put(e.name, 0);
    put('0000644\0', 100);
    put('0000000\0', 108);
    put('0000000\0', 116);
    put(body.length.toString(8).padStart(11, '0') + '\0', 124);
    put('00000000000\0', 136);
    put('        ', 148);
    put(e.type ?? '0', 156);
    if (e.link) put(e.link, 157);
    put('ustar\0', 257);
    put('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    put(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    blocks.push(h);
    const padded = new Uint8Array(Math.ceil(body.length / 512) * 512);
    padded.set(body);
    blocks.push(padded);
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((s, b) => s + b.length, 0));
  let o = 0;
  for (const b of blocks) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}

const SKILL = '---\nname: demo\ndescription: A demo.\n---\nHello.\n';

describe('readArchive', () => {
  it('reads zip and tar.gz into files the reader accepts', () => {
    const zip = zipSync({ 'demo/SKILL.md': strToU8(SKILL), 'demo/scripts/': new Uint8Array(), 'demo/notes.txt': strToU8('n') });
    const z = readArchive(zip);
    expect(z.diagnostics).toEqual([]);
    expect(z.files.map((f) => f.path).sort()).toEqual(['demo/SKILL.md', 'demo/notes.txt']);
    const res = readSkillsFromFiles(z.files);
    expect(res.skills.map((s) => [s.name, s.diagnostics.length])).toEqual([['demo', 0]]);

    const tgz = gzipSync(tar([{ name: 'demo/', type: '5' }, { name: 'demo/SKILL.md', body: SKILL }]));
    const t = readArchive(tgz);
    expect(t.diagnostics).toEqual([]);
    expect(t.files.map((f) => f.path)).toEqual(['demo/SKILL.md']);
    expect(new TextDecoder().decode(t.files[0].content)).toBe(SKILL);
  });

  it('skips path traversal, absolute paths and links with errors', () => {
    const z = readArchive(zipSync({ '../evil.txt': strToU8('x'), 'ok/SKILL.md': strToU8(SKILL) }));
    expect(z.files.map((f) => f.path)).toEqual(['ok/SKILL.md']);
    expect(z.diagnostics.map((d) => d.code)).toEqual(['path/outside-package']);
    const t = readArchive(tar([{ name: '/etc/passwd', body: 'x' }, { name: 'a/link', type: '2', link: '/etc/shadow' }, { name: 'a/hard', type: '1', link: 'a/x' }]));
    expect(t.files).toEqual([]);
    expect(t.diagnostics.map((d) => d.code)).toEqual(['path/outside-package', 'path/symlink', 'path/symlink']);
  });

  it('stops a gzip bomb at the byte limit', () => {
    const huge = new Uint8Array(64 * 1024 * 1024); // 64 MB of zeros, ~64 KB compressed
    const bomb = gzipSync(tar([{ name: 'a/SKILL.md', body: huge }]), { level: 9 });
    expect(bomb.length).toBeLessThan(200_000);
    const r = readArchive(bomb);
    expect(r.files).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['archive/too-large']);
  });

  it('stops a zip bomb while inflating and limits entry count', () => {
    const big = new Uint8Array(3 * 1024 * 1024);
    const zip = zipSync({ 'a.txt': big, 'b.txt': big }, { level: 9 });
    const r = readArchive(zip, { limits: { maxArchiveBytes: 5 * 1024 * 1024 } });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['archive/too-large']);
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 20; i++) many[`f${i}.txt`] = strToU8('x');
    expect(readArchive(zipSync(many), { limits: { maxArchiveFiles: 5 } }).diagnostics.map((d) => d.code)).toEqual(['archive/too-many-files']);
  });

  it('reports garbage instead of throwing', () => {
    expect(readArchive(new Uint8Array([1, 2, 3])).diagnostics.map((d) => d.code)).toEqual(['archive/unsupported']);
    const corrupt = zipSync({ 'a.txt': strToU8('hello world hello world') });
    corrupt.fill(0xff, 30, 60);
    expect(readArchive(corrupt).diagnostics.length).toBeGreaterThan(0);
    const badTar = tar([{ name: 'x', body: 'y' }]);
    badTar[148] = 0x39;
    expect(readArchive(badTar).diagnostics.map((d) => d.code)).toEqual(['archive/corrupt']);
  });
});
