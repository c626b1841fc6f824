// Tests: one skill folder on disk as the kernel loads it (its manifest, and its files read
// from the folder), so a lib test can run a bundled skill without the CLI's loader.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readSkillsFromPath } from '../../skills';
import type { LoadedSkill } from '../types';

export async function loadSkillFolder(dir: string, scope: string): Promise<LoadedSkill> {
  const root = path.resolve(dir);
  const res = await readSkillsFromPath(root);
  if (res.skills.length !== 1) throw new Error(`expected one skill in ${root}, found ${res.skills.length}`);
  const inside = (rel: string) => {
    const full = path.resolve(root, rel);
    if (!full.startsWith(root + path.sep)) throw new Error(`${rel} is outside the package`);
    return full;
  };
  return {
    manifest: res.skills[0],
    scope,
    readFile: (rel) => readFile(inside(rel), 'utf8'),
    readBytes: async (rel) => new Uint8Array(await readFile(inside(rel))),
  };
}
