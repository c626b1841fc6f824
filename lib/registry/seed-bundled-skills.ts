// Loads every package under skills/ into the registry as @skillyard/<name>. Idempotent:
// a version already stored is left as it is (versions are immutable).
import 'server-only';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db';
import { BUNDLED_SCOPE } from '../runtime';
import { readSkillsFromFiles } from '../skills';
import { publishVersion } from './publish-version';
import { readPackageDir } from './read-package-dir';

export { BUNDLED_SCOPE };

export type SeedReport = { published: string[]; unchanged: string[]; invalid: string[] };

async function ensureBundledScope(db: Db): Promise<void> {
  const existing = await db.scope.findUnique({ where: { name: BUNDLED_SCOPE } });
  if (existing) return;
  try {
    const team = await db.team.upsert({
      where: { slug: BUNDLED_SCOPE },
      create: { slug: BUNDLED_SCOPE, name: 'Skillyard' },
      update: {},
    });
    await db.scope.upsert({ where: { name: BUNDLED_SCOPE }, create: { name: BUNDLED_SCOPE, kind: 'team', teamId: team.id }, update: {} });
  } catch (err) {
    // a concurrent start created it between our read and write (unique violation)
    if ((err as { code?: string }).code !== 'P2002') throw err;
  }
}

export async function seedBundledSkills(db: Db, root = path.join(process.cwd(), 'skills')): Promise<SeedReport> {
  await ensureBundledScope(db);
  const report: SeedReport = { published: [], unchanged: [], invalid: [] };
  const dirs = (await fs.readdir(root, { withFileTypes: true }).catch(() => []))
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort();
  for (const dir of dirs) {
    const files = await readPackageDir(path.join(root, dir));
    // under its folder name, which names a package that has no name of its own (Rye)
    const { skills } = readSkillsFromFiles(files.map((f) => ({ path: `${dir}/${f.path}`, content: f.content })));
    for (const manifest of skills) {
      const version = manifest.version ?? '0.1.0';
      const label = `@${BUNDLED_SCOPE}/${manifest.name}@${version}`;
      if (manifest.diagnostics.some((d) => d.severity === 'error')) {
        report.invalid.push(label);
        continue;
      }
      const stored = await db.skillVersion.findFirst({
        where: { version, skill: { scopeName: BUNDLED_SCOPE, name: manifest.name } },
        select: { id: true },
      });
      if (stored) {
        report.unchanged.push(label);
        continue;
      }
      try {
        await publishVersion(db, { scope: BUNDLED_SCOPE, manifest, files, version });
        report.published.push(label);
      } catch (err) {
        // another instance starting at the same moment published it first
        if ((err as { code?: string }).code !== 'publish/version-exists') throw err;
        report.unchanged.push(label);
      }
    }
  }
  return report;
}
