// What a publish would store, before anything is stored: the manifest, every diagnostic
// with file and line, the scan findings, the version and whether that number is free.
// The web page shows it for the author to confirm; `--dry-run` prints it.
import 'server-only';
import semver from 'semver';
import type { Db } from '../db';
import type { Diagnostic, SkillManifest } from '../skills';
import { AppError, isAppError, isErrorCode } from '../errors';
import { assertScopeOwner, defaultScopeOf } from './assert-scope-owner';
import { publishableVersion } from './publish-version';
import type { ReadUploadOptions, UploadInput } from './read-upload';
import { isBlockingFinding, type ScanFinding } from './scan-package';
import { readUploadOffThread } from './upload-reader';
import type { PackageFile } from './package-tarball';

export type PreviewInput = {
  upload: UploadInput;
  userId: string;
  scope?: string | null;
  version?: string | null;
  options?: ReadUploadOptions;
};

export type PackagePreview = {
  scope: string;
  name: string | null;
  version: string | null;
  manifest: SkillManifest | null;
  diagnostics: Diagnostic[];
  findings: ScanFinding[];
  files: Array<{ path: string; size: number }>;
  sizeBytes: number;
  /** why it cannot be published; empty = it can */
  problems: Array<{ code: string; message: string }>;
  /** the package itself, for the publish that follows a preview */
  packageFiles: PackageFile[];
};

export async function previewPackage(db: Db, input: PreviewInput): Promise<PackagePreview> {
  const scope = (input.scope?.replace(/^@/, '') || (await defaultScopeOf(db, input.userId))).toLowerCase();
  await assertScopeOwner(db, scope, input.userId);
  // unpacking, reading and scanning run in a worker thread (upload-reader.ts): a large
  // archive never blocks this process's event loop
  const { pkg, findings } = await readUploadOffThread(input.upload, input.options);
  const problems: PackagePreview['problems'] = [];
  const errors = pkg.diagnostics.filter((d) => d.severity === 'error');
  if (!pkg.manifest && errors.length === 0) problems.push({ code: 'publish/no-skill', message: 'No skill was found in the upload.' });
  if (errors.length) problems.push({ code: 'publish/invalid-skill', message: `${errors.length} error${errors.length > 1 ? 's' : ''} must be fixed first.` });
  let version: string | null = null;
  if (pkg.manifest) {
    try {
      version = publishableVersion(input.version, pkg.manifest);
    } catch (err) {
      if (!isAppError(err)) throw err;
      problems.push({ code: err.code, message: err.message });
    }
  }
  if (version && pkg.manifest) {
    const used = await db.usedVersionNumber.findUnique({
      where: { scopeName_name_version: { scopeName: scope, name: pkg.manifest.name, version } },
      select: { version: true },
    });
    if (used) {
      const next = semver.inc(version, 'patch');
      problems.push({
        code: 'publish/version-exists',
        message: `@${scope}/${pkg.manifest.name}@${version} was published before; version numbers are never reused${next ? ` (try ${next})` : ''}.`,
      });
    }
  }
  for (const f of findings.filter(isBlockingFinding)) {
    problems.push({ code: 'publish/blocked-by-scan', message: `${f.file}:${f.line}: ${f.message} [${f.rule}]` });
  }
  return {
    scope,
    name: pkg.manifest?.name ?? null,
    version,
    manifest: pkg.manifest,
    diagnostics: pkg.diagnostics,
    findings,
    files: pkg.files.map((f) => ({ path: f.path, size: f.content.byteLength })),
    sizeBytes: pkg.sizeBytes,
    problems,
    packageFiles: pkg.files,
  };
}

/** The first problem of a preview as the error a publish answers with. */
export function previewError(p: PackagePreview): AppError {
  const first = p.problems[0];
  if (first.code === 'publish/invalid-skill') {
    const lines = p.diagnostics
      .filter((d) => d.severity === 'error')
      .slice(0, 20)
      .map((d) => `${d.file ? `${d.file}${d.line ? `:${d.line}` : ''}: ` : ''}${d.message} [${d.code}]`);
    return new AppError('publish/invalid-skill', `${p.name ?? 'The skill'} has errors; nothing was published:\n${lines.join('\n')}`);
  }
  if (first.code === 'publish/blocked-by-scan') {
    const where = p.problems
      .filter((x) => x.code === first.code)
      .map((x) => x.message)
      .join('\n');
    return new AppError(first.code, `The scan found a secret; remove it and publish again. Nothing was published:\n${where}`);
  }
  return new AppError(isErrorCode(first.code) ? first.code : 'publish/invalid-skill', first.message);
}
