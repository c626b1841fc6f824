import { describe, expect, it } from 'vitest';
import { readArchive } from '../skills';
import { checkIntegrity, integrityOf, packTarball } from './package-tarball';
import { isValidDistTag } from './dist-tag-name';
import { buildTsQuery, queryWords } from './search-skills';

const enc = new TextEncoder();

describe('package tarball', () => {
  const files = [
    { path: 'scripts/run.js', content: enc.encode('export default 1;\n') },
    { path: 'SKILL.md', content: enc.encode('---\nname: a\n---\n') },
    { path: `deep/${'d'.repeat(90)}/${'f'.repeat(90)}.md`, content: enc.encode('long path') },
  ];

  it('is the same bytes for the same files in any order, and reads back', () => {
    const a = packTarball(files, 'pkg');
    const b = packTarball([...files].reverse(), 'pkg');
    expect(a).toEqual(b);
    const back = readArchive(a);
    expect(back.diagnostics).toEqual([]);
    expect(back.files.map((f) => f.path).sort()).toEqual(files.map((f) => `pkg/${f.path}`).sort());
    expect(new TextDecoder().decode(back.files.find((f) => f.path === 'pkg/scripts/run.js')!.content)).toBe('export default 1;\n');
  });

  it('checks integrity strings', () => {
    const bytes = packTarball(files, 'pkg');
    const sri = integrityOf(bytes);
    expect(sri).toMatch(/^sha512-/);
    expect(checkIntegrity(bytes, sri)).toBe(true);
    const tampered = new Uint8Array(bytes);
    tampered[20] ^= 1;
    expect(checkIntegrity(tampered, sri)).toBe(false);
    expect(checkIntegrity(bytes, 'md5-abc')).toBe(false);
  });
});

describe('dist-tag names and queries', () => {
  it('refuses tags that read as versions or ranges', () => {
    expect(isValidDistTag('latest')).toBe(true);
    expect(isValidDistTag('next')).toBe(true);
    for (const bad of ['1.0.0', '^1', 'x', '*', '', 'has space', 'a'.repeat(40)]) expect(isValidDistTag(bad)).toBe(false);
  });

  it('keeps only letters and digits in tsquery words', () => {
    expect(queryWords("Wether's  forecast & | !x:*")).toEqual(['wether', 's', 'forecast', 'x']);
    expect(buildTsQuery(['wether', 'city'], { wether: ['weather', 'whether'] })).toBe('(wether:* | weather | whether) & (city:*)');
  });
});
