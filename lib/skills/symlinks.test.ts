import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPackageFolder } from './disk';
import { readSkillsFromPath } from './read-path';
import { skillMd } from './test-helpers';

// Links inside the folder being read are read as their target (Claude Code follows
// symlinked skills); a link leaving it, a broken one and a loop each say which they are.
describe('symbolic links on disk', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-symlinks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tree = (name: string) => {
    const root = path.join(dir, name);
    mkdirSync(root, { recursive: true });
    return root;
  };
  const write = (p: string, text: string) => {
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
  };
  const summary = (d: { severity: string; code: string }[]) => d.map((x) => `${x.severity} ${x.code}`);

  it('a skill folder that is a link to a folder inside the tree is read as its target, with a note', async () => {
    const root = tree('folder-link');
    write(path.join(root, 'shared/pdf/SKILL.md'), skillMd('name: pdf\ndescription: Reads PDFs'));
    write(path.join(root, 'shared/pdf/scripts/run.py'), 'print(1)\n');
    mkdirSync(path.join(root, 'skills'));
    symlinkSync('../shared/pdf', path.join(root, 'skills/pdf'));
    const r = await readSkillsFromPath(root);
    expect(r.diagnostics).toEqual([]);
    const linked = r.skills.find((s) => s.source === path.join(root, 'skills/pdf'))!;
    expect(linked.name).toBe('pdf');
    expect(linked.files).toEqual(['SKILL.md', 'scripts/run.py']);
    expect(summary(linked.diagnostics)).toEqual(['note path/symlink-followed']);
    // Codex's loader does not walk into a linked skill folder; Claude Code follows it
    expect(linked.agents!.filter((a) => !a.loads).map((a) => a.agent)).toEqual(['codex']);
    expect(r.skills).toHaveLength(2);
  });

  it('a file link inside a package is read as its target with a note; the folder link inside a package too', async () => {
    const root = tree('file-link');
    write(path.join(root, 'docs/guide.md'), '# guide\n');
    write(path.join(root, 'docs/ref/api.md'), '# api\n');
    write(path.join(root, 'real/SKILL.md'), skillMd('name: linked\ndescription: Linked SKILL.md'));
    write(path.join(root, 'linked/README.md'), 'x\n');
    symlinkSync('../real/SKILL.md', path.join(root, 'linked/SKILL.md'));
    symlinkSync('../docs/guide.md', path.join(root, 'linked/guide.md'));
    symlinkSync('../docs/ref', path.join(root, 'linked/ref'));
    const r = await readSkillsFromPath(root);
    const s = r.skills.find((x) => x.name === 'linked')!;
    expect(s.description).toBe('Linked SKILL.md');
    expect(s.files).toEqual(['README.md', 'SKILL.md', 'guide.md', 'ref/api.md']);
    expect(s.diagnostics.map((d) => [d.severity, d.code, path.basename(d.file!)])).toEqual([
      ['note', 'path/symlink-followed', 'SKILL.md'],
      ['note', 'path/symlink-followed', 'guide.md'],
      ['note', 'path/symlink-followed', 'ref'],
    ]);
  });

  it('a link leaving the tree, a broken link and a loop each get their own error', async () => {
    const root = tree('bad-links');
    write(path.join(dir, 'outside-secret.txt'), 'TOP SECRET');
    write(path.join(root, 'pkg/SKILL.md'), skillMd('name: pkg\ndescription: y'));
    symlinkSync(path.join(dir, 'outside-secret.txt'), path.join(root, 'pkg/leak.txt'));
    symlinkSync('missing.md', path.join(root, 'pkg/gone.md'));
    symlinkSync('..', path.join(root, 'pkg/up'));
    const r = await readSkillsFromPath(root);
    expect(r.skills[0].diagnostics.map((d) => [d.code, path.basename(d.file!)])).toEqual([
      ['path/symlink-broken', 'gone.md'],
      ['path/symlink-outside', 'leak.txt'],
      ['path/symlink-loop', 'up'],
    ]);
    expect(r.skills[0].diagnostics[0].message).toContain('missing.md does not exist');
    expect(JSON.stringify(r)).not.toContain('TOP SECRET');
  });

  it('a broken link where a skill folder stands is reported, not silent', async () => {
    const root = tree('broken-skill-folder');
    write(path.join(root, 'skills/ok/SKILL.md'), skillMd('name: ok\ndescription: y'));
    symlinkSync('../../plugins/gone/skills/lost', path.join(root, 'skills/lost'));
    const r = await readSkillsFromPath(root);
    expect(r.diagnostics.map((d) => [d.severity, d.code, d.file])).toEqual([['warning', 'path/symlink-broken-orphan', path.join(root, 'skills/lost')]]);
    expect(r.diagnostics[0].message).toContain('plugins/gone/skills/lost');
  });

  it('a path given to validate that is a link is read as its target, with a note', async () => {
    const root = tree('given-link');
    write(path.join(root, 'real/SKILL.md'), skillMd('name: real\ndescription: y'));
    symlinkSync(path.join(root, 'real'), path.join(root, 'alias'));
    const r = await readSkillsFromPath(path.join(root, 'alias'));
    expect(summary(r.diagnostics)).toEqual(['note path/symlink-followed']);
    expect(r.skills.map((s) => s.name)).toEqual(['real']);
    symlinkSync(path.join(root, 'nowhere'), path.join(root, 'dead'));
    const dead = await readSkillsFromPath(path.join(root, 'dead'));
    expect(summary(dead.diagnostics)).toEqual(['error path/symlink-broken']);
  });

  it('a published package copies a link inside it as its target and leaves the others out', async () => {
    const root = tree('publish');
    write(path.join(root, 'SKILL.md'), skillMd('name: publish\ndescription: y'));
    write(path.join(root, 'assets/logo.txt'), 'LOGO');
    symlinkSync('assets/logo.txt', path.join(root, 'logo.txt'));
    symlinkSync('assets', path.join(root, 'more'));
    symlinkSync('/etc/hostname', path.join(root, 'host'));
    const r = await readPackageFolder(root);
    expect(r.diagnostics).toEqual([]);
    expect(r.files.map((f) => [f.path, Buffer.from(f.content).toString()]).filter(([p]) => p !== 'SKILL.md')).toEqual([
      ['assets/logo.txt', 'LOGO'],
      ['logo.txt', 'LOGO'],
      ['more/logo.txt', 'LOGO'],
    ]);
  });
});
