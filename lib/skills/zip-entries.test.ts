// Zips whose central directory and local headers disagree, built byte by byte: an upload
// must not be checked as one package and unpacked (by `unzip`, or a streaming reader) as
// another. Each case was accepted before zip-entries.ts.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readArchive } from './archive';
import { crc32 } from './zip-entries';

type Entry = {
  name: string;
  data: string;
  /** the name the central directory gives (default: name) */
  centralName?: string;
  /** Unix mode in the central directory's external attributes */
  centralMode?: number;
  /** an ASi Unix extra field with this mode, in the local header */
  localAsiMode?: number;
  /** a size the central directory declares instead of the real one */
  centralSize?: number;
  /** left out of the central directory */
  hidden?: boolean;
};

function buildZip(entries: Entry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  let listed = 0;
  for (const e of entries) {
    const data = strToU8(e.data);
    const crc = crc32(data);
    const name = strToU8(e.name);
    const extra = e.localAsiMode === undefined ? new Uint8Array() : asi(e.localAsiMode);
    const local = new Uint8Array(30 + name.length + extra.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint32(14, crc, true);
    l.setUint32(18, data.length, true);
    l.setUint32(22, data.length, true);
    l.setUint16(26, name.length, true);
    l.setUint16(28, extra.length, true);
    local.set(name, 30);
    local.set(extra, 30 + name.length);
    parts.push(local, data);
    if (!e.hidden) {
      const cname = strToU8(e.centralName ?? e.name);
      const c = new Uint8Array(46 + cname.length);
      const v = new DataView(c.buffer);
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(4, 0x0314, true); // made by Unix
      v.setUint16(6, 20, true);
      v.setUint32(16, crc, true);
      v.setUint32(20, e.centralSize ?? data.length, true);
      v.setUint32(24, e.centralSize ?? data.length, true);
      v.setUint16(28, cname.length, true);
      v.setUint32(38, ((e.centralMode ?? 0o100644) << 16) >>> 0, true);
      v.setUint32(42, offset, true);
      c.set(cname, 46);
      central.push(c);
      listed++;
    }
    offset += local.length + data.length;
  }
  const cdSize = central.reduce((n, c) => n + c.length, 0);
  const eocd = new Uint8Array(22);
  const v = new DataView(eocd.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(8, listed, true);
  v.setUint16(10, listed, true);
  v.setUint32(12, cdSize, true);
  v.setUint32(16, offset, true);
  const all = [...parts, ...central, eocd];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of all) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function asi(mode: number): Uint8Array {
  const f = new Uint8Array(4 + 14);
  const v = new DataView(f.buffer);
  v.setUint16(0, 0x756e, true);
  v.setUint16(2, 14, true);
  v.setUint16(8, mode, true);
  return f;
}

const SKILL = '---\nname: demo\ndescription: A demo.\n---\nHello.\n';
const read = (entries: Entry[]) => readArchive(buildZip(entries));
const paths = (r: ReturnType<typeof read>) => r.files.map((f) => f.path);
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

describe('zip entries', () => {
  it('reads a well-formed zip, ours and fflate’s alike', () => {
    const ours = read([{ name: 'demo/SKILL.md', data: SKILL }, { name: 'demo/notes.md', data: 'notes' }]);
    expect(ours.diagnostics).toEqual([]);
    expect(paths(ours)).toEqual(['demo/SKILL.md', 'demo/notes.md']);
    const theirs = readArchive(zipSync({ 'demo/SKILL.md': strToU8(SKILL), 'demo/big.bin': new Uint8Array(300_000).fill(7) }, { level: 6 }));
    expect(theirs.diagnostics).toEqual([]);
    const big = theirs.files.find((f) => f.path === 'demo/big.bin')!.content;
    expect(Buffer.from(big).equals(Buffer.alloc(300_000, 7))).toBe(true);
  });

  it('never reads as a file an entry the central directory calls a link, whatever the local header names it', () => {
    const r = read([{ name: 'demo/SKILL.md', data: SKILL }, { name: 'demo/leaq', centralName: 'demo/leak', centralMode: 0o120777, data: '/etc/passwd' }]);
    expect(paths(r)).not.toContain('demo/leaq');
    expect(errors(r)).toEqual(['archive/corrupt']);
    expect(r.diagnostics[0].message).toMatch(/disagree about the name of demo\/leak/);
  });

  it('treats an entry as a link when only its local header says so', () => {
    const r = read([{ name: 'demo/SKILL.md', data: SKILL }, { name: 'demo/leak', localAsiMode: 0o120777, data: '/etc/passwd' }]);
    expect(paths(r)).toEqual(['demo/SKILL.md']);
    expect(errors(r)).toEqual(['path/symlink']);
  });

  it('refuses an entry the central directory does not list, and sizes that disagree', () => {
    const hidden = read([{ name: 'demo/SKILL.md', data: SKILL }, { name: 'demo/evil.md', data: 'hidden from unzip', hidden: true }, { name: 'demo/ok.md', data: 'ok' }]);
    expect(paths(hidden)).not.toContain('demo/evil.md');
    expect(errors(hidden)).toEqual(['archive/corrupt']);
    expect(hidden.diagnostics[0].message).toMatch(/unlisted bytes before demo\/ok\.md/);
    const sized = read([{ name: 'demo/SKILL.md', data: SKILL }, { name: 'demo/a.md', data: 'abcdef', centralSize: 3 }]);
    expect(errors(sized)).toEqual(['archive/corrupt']);
    expect(sized.diagnostics[0].message).toMatch(/disagree about the size of demo\/a\.md/);
  });
});
