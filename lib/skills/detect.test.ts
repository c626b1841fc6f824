import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gzipSync, strToU8, zipSync } from 'fflate';
import { detectSkills } from './detect';
import { readSkillsFromPath } from './read-path';
import { read, skillMd } from './test-helpers';

describe('detectSkills', () => {
  it('finds every format in a tree and the root of each package', () => {
    expect(
      detectSkills([
        'a/SKILL.md',
        'a/tools.json',
        'a/scripts/x.js',
        'a/helper.skill.md',
        'b/tools.json',
        'b/src/tools/x.ts',
        'c/.ai/tools/cat/t.py',
        'c/.ai/tools/cat/u.yaml',
        'loose/one.skill.md',
        'loose/two.skill.ts',
        'loose/three.skill.js',
        'README.md',
      ]),
    ).toEqual([
      { format: 'agent-skill', root: 'a' },
      { format: 'malv', root: 'b' },
      { format: 'rye', root: 'c' },
      { format: 'skill-md', root: 'loose', main: 'one.skill.md' },
      { format: 'code-skill', root: 'loose', main: 'three.skill.js' },
      { format: 'code-skill', root: 'loose', main: 'two.skill.ts' },
    ]);
  });

  it('a tools.json inside another package is just a file; a Rye package owns only its .ai/ folder', () => {
    expect(detectSkills(['s/SKILL.md', 's/data/tools.json', 'r/.ai/tools/x.py', 'r/.ai/tools/tools.json', 'r/sub/tools.json'])).toEqual([
      { format: 'rye', root: 'r' },
      { format: 'malv', root: 'r/sub' },
      { format: 'agent-skill', root: 's' },
    ]);
  });

  it('nothing to find is a top-level diagnostic', () => {
    const r = read({ 'README.md': '# hi' });
    expect(r.skills).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['detect/no-skills']);
  });
});

describe('readSkillsFromPath', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-detect-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'tree/alpha'), { recursive: true });
  mkdirSync(path.join(dir, 'tree/beta/.ai/tools/util'), { recursive: true });
  mkdirSync(path.join(dir, 'tree/node_modules/ignored'), { recursive: true });
  writeFileSync(path.join(dir, 'tree/alpha/SKILL.md'), skillMd('name: alpha\ndescription: A.'));
  writeFileSync(path.join(dir, 'tree/gamma.skill.md'), skillMd('name: gamma\ndescription: G.'));
  writeFileSync(path.join(dir, 'tree/node_modules/ignored/SKILL.md'), skillMd('name: ignored\ndescription: I.'));
  writeFileSync(
    path.join(dir, 'tree/beta/.ai/tools/util/hi.yaml'),
    'tool_id: hi\ntool_type: yaml\nversion: 1.0.0\nexecutor_id: x\ncategory: util\ndescription: Hi\n',
  );

  it('reads a tree of many skills (node_modules skipped) with display paths', async () => {
    const r = await readSkillsFromPath(path.join(dir, 'tree'));
    expect(r.diagnostics).toEqual([]);
    expect(r.skills.map((s) => [s.name, s.format])).toEqual([
      ['alpha', 'agent-skill'],
      ['beta', 'rye'],
      ['gamma', 'skill-md'],
    ]);
  });

  it('a file path reads its package; SKILL.md name is checked against the folder', async () => {
    writeFileSync(path.join(dir, 'tree/alpha/SKILL.md'), skillMd('name: wrong\ndescription: A.'));
    const r = await readSkillsFromPath(path.join(dir, 'tree/alpha/SKILL.md'));
    expect(r.skills[0].diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([['skill/name-dir-mismatch', path.relative(process.cwd(), path.join(dir, 'tree/alpha/SKILL.md')), 2]]);
    const y = await readSkillsFromPath(path.join(dir, 'tree/beta/.ai/tools/util/hi.yaml'));
    expect(y.skills.map((s) => s.name)).toEqual(['beta']);
    const g = await readSkillsFromPath(path.join(dir, 'tree/gamma.skill.md'));
    expect(g.skills.map((s) => [s.name, s.format, s.diagnostics.length])).toEqual([['gamma', 'skill-md', 0]]);
  });

  it('reads archives from disk, naming the root after the archive', async () => {
    const zipPath = path.join(dir, 'pack.zip');
    writeFileSync(zipPath, zipSync({ 'SKILL.md': strToU8(skillMd('name: pack\ndescription: P.')) }));
    const z = await readSkillsFromPath(zipPath);
    expect(z.skills.map((s) => [s.name, s.diagnostics.length])).toEqual([['pack', 0]]);
    const bad = path.join(dir, 'other.tar.gz');
    writeFileSync(bad, gzipSync(strToU8('not a tar at all'.repeat(40))));
    const b = await readSkillsFromPath(bad);
    expect(b.skills).toEqual([]);
    expect(b.diagnostics.map((d) => d.code)).toContain('archive/corrupt');
  });
});
