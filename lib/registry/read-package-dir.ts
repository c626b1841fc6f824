// Reads a package folder from disk into memory for publishing: regular files only
// (links are skipped, never followed), within the package size limits.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PackageFile } from './publish-version';

export const PACKAGE_LIMITS = { maxFiles: 500, maxFileBytes: 1024 * 1024, maxPackageBytes: 5 * 1024 * 1024 };

export async function readPackageDir(dir: string): Promise<PackageFile[]> {
  const files: PackageFile[] = [];
  let total = 0;
  async function walk(rel: string): Promise<void> {
    const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name === '.git') continue;
        await walk(relPath);
      } else if (entry.isFile()) {
        const content = await fs.readFile(path.join(dir, relPath));
        if (content.byteLength > PACKAGE_LIMITS.maxFileBytes) throw new Error(`${relPath} is larger than 1 MB`);
        total += content.byteLength;
        if (files.length >= PACKAGE_LIMITS.maxFiles || total > PACKAGE_LIMITS.maxPackageBytes) {
          throw new Error(`${dir} is larger than the package limits (500 files, 5 MB)`);
        }
        files.push({ path: relPath, content: new Uint8Array(content) });
      }
    }
  }
  await walk('');
  return files;
}
