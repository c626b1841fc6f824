import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPackageFolder } from './disk';

describe('readPackageFolder (the one folder walk, with contents)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-folder-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every regular file, skips links, .git and node_modules, keeps large assets', async () => {
    const pkg = path.join(dir, 'pkg');
    mkdirSync(path.join(pkg, 'scripts'), { recursive: true });
    mkdirSync(path.join(pkg, '.git'));
    mkdirSync(path.join(pkg, 'node_modules/x'), { recursive: true });
    writeFileSync(path.join(pkg, 'SKILL.md'), 'hello');
    writeFileSync(path.join(pkg, 'scripts/a.py'), 'print(1)');
    writeFileSync(path.join(pkg, 'font.ttf'), Buffer.alloc(2 * 1024 * 1024, 1));
    writeFileSync(path.join(pkg, '.git/HEAD'), 'x');
    writeFileSync(path.join(pkg, 'node_modules/x/i.js'), 'x');
    symlinkSync('/etc/passwd', path.join(pkg, 'leak'));
    const r = await readPackageFolder(pkg);
    expect(r.diagnostics).toEqual([]);
    expect(r.files.map((f) => [f.path, f.content.length])).toEqual([
      ['SKILL.md', 5],
      ['font.ttf', 2 * 1024 * 1024],
      ['scripts/a.py', 8],
    ]);
  });

  it('package limits are errors, and configurable', async () => {
    const r = await readPackageFolder(path.join(dir, 'pkg'), { limits: { maxPackageBytes: 1024 } });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['package/too-large']);
    const many = path.join(dir, 'many');
    mkdirSync(many);
    for (let i = 0; i < 6; i++) writeFileSync(path.join(many, `f${i}`), 'x');
    const m = await readPackageFolder(many, { limits: { maxPackageFiles: 3 } });
    expect(m.diagnostics.map((d) => d.code)).toContain('path/too-many-files');
  });
});
