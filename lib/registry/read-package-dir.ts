// Reads a package folder from disk into memory for publishing, through the skill
// reader's own folder walk (lib/skills readPackageFolder): regular files only (links
// are never followed), within the package limits of lib/skills (SKILLYARD_MAX_* to
// change them).
import 'server-only';
import { packageLimitSettings } from './package-limit-settings';
import { readPackageFolder } from '../skills';
import type { PackageFile } from './publish-version';

export async function readPackageDir(dir: string): Promise<PackageFile[]> {
  const { files, diagnostics } = await readPackageFolder(dir, { limits: packageLimitSettings() });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`${dir}: ${errors.map((d) => d.message).join('; ')}`);
  return files;
}
