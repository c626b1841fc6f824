// An upload (a .tar.gz/.zip, one skill file, or the files of a picked folder) -> one
// skill package: its files, its manifest and every diagnostic. The SPEC's hostile-input
// limits are enforced here, before anything is parsed or stored, and a breach is an
// error that names the limit.
import { archiveKind, normalizeTreePath, readArchive, readSkillsFromFiles, resolveLimits, type Diagnostic, type ReadLimits, type SkillManifest, type TrustedKey } from '../skills';
import { AppError } from '../errors';
import type { PackageFile } from './package-tarball';
import { pathCollisions } from './path-collisions';
import { packageLimitSettings } from './package-limit-settings';

export type UploadInput = { kind: 'bytes'; bytes: Uint8Array; fileName?: string } | { kind: 'files'; files: PackageFile[]; folderName?: string };

export type ReadUploadOptions = { limits?: Partial<ReadLimits>; trustedKeys?: readonly TrustedKey[] };

export type UploadedPackage = {
  /** package-relative files, as stored and as the tarball holds them under `<name>/` */
  files: PackageFile[];
  manifest: SkillManifest | null;
  /** archive, tree and skill diagnostics together, sorted by file and line */
  diagnostics: Diagnostic[];
  sizeBytes: number;
};

/** The limits an upload is held to (SPEC 7; lib/skills' defaults, configurable there). */
export function uploadLimits(partial?: Partial<ReadLimits>): ReadLimits {
  return resolveLimits({ ...packageLimitSettings(), ...partial });
}

function limitError(d: Diagnostic, limits: ReadLimits): AppError {
  switch (d.code) {
    case 'archive/too-large':
      return new AppError('publish/too-large', `Upload refused: ${d.message} (limit maxArchiveBytes = ${limits.maxArchiveBytes} bytes).`);
    case 'archive/too-many-files':
      return new AppError('publish/too-many-files', `Upload refused: ${d.message} (limit maxArchiveFiles = ${limits.maxArchiveFiles}).`);
    case 'file/too-large':
      return new AppError('publish/file-too-large', `Upload refused: ${d.message} (limit maxFileBytes = ${limits.maxFileBytes} bytes).`);
    case 'path/outside-package':
      return new AppError('publish/unsafe-path', `Upload refused: ${d.message}.`);
    case 'path/symlink':
      return new AppError('publish/symlink', `Upload refused: ${d.message}.`);
    default:
      return new AppError('publish/bad-archive', `Upload refused: ${d.message}.`);
  }
}

const LIMIT_CODES = new Set(['archive/too-large', 'archive/too-many-files', 'archive/corrupt', 'archive/unsupported', 'file/too-large', 'path/outside-package', 'path/symlink']);

/** Drops one folder that holds everything (`greeter/SKILL.md` -> `SKILL.md`). */
function stripCommonFolder(files: PackageFile[]): { files: PackageFile[]; folder: string | null } {
  if (files.length === 0) return { files, folder: null };
  const first = files[0].path.split('/')[0];
  if (!files.every((f) => f.path.startsWith(`${first}/`))) return { files, folder: null };
  return { files: files.map((f) => ({ path: f.path.slice(first.length + 1), content: f.content })), folder: first };
}

const SKILL_FILE = /\.skill\.(md|js|ts|mjs)$/i;

export function readUpload(input: UploadInput, opts: ReadUploadOptions = {}): UploadedPackage {
  const limits = uploadLimits(opts.limits);
  let raw: PackageFile[];
  let folderHint: string | undefined;
  if (input.kind === 'bytes') {
    if (input.bytes.byteLength > limits.maxPackageBytes) {
      throw new AppError('publish/too-large', `Upload refused: ${input.bytes.byteLength} bytes is over the package limit (maxPackageBytes = ${limits.maxPackageBytes} bytes).`);
    }
    if (archiveKind(input.bytes)) {
      const res = readArchive(input.bytes, { limits });
      const hostile = res.diagnostics.find((d) => d.severity === 'error' && LIMIT_CODES.has(d.code));
      if (hostile) throw limitError(hostile, limits);
      raw = res.files;
    } else {
      const name = input.fileName?.split(/[\\/]/).pop() ?? '';
      if (!SKILL_FILE.test(name)) {
        throw new AppError('publish/bad-archive', 'Upload refused: expected a .tar.gz, .tgz or .zip archive, or a single .skill.md/.skill.js/.skill.ts file.');
      }
      raw = [{ path: name, content: input.bytes }];
    }
  } else {
    raw = [];
    for (const f of input.files) {
      const p = normalizeTreePath(f.path);
      if (p === null) throw limitError({ severity: 'error', code: 'path/outside-package', message: `"${f.path.slice(0, 200)}" is absolute or climbs out of the package` }, limits);
      // no per-file limit here: fonts, images and vendored files only count towards the
      // package limits, as in an archive; a parsed file over maxFileBytes is a diagnostic
      raw.push({ path: p, content: f.content });
    }
    folderHint = input.folderName;
  }
  const sizeBytes = raw.reduce((n, f) => n + f.content.byteLength, 0);
  if (raw.length > limits.maxPackageFiles) {
    throw new AppError('publish/too-many-files', `Upload refused: ${raw.length} files is over the package limit (maxPackageFiles = ${limits.maxPackageFiles}).`);
  }
  if (sizeBytes > limits.maxPackageBytes) {
    throw new AppError('publish/too-large', `Upload refused: the files add up to ${sizeBytes} bytes, over the package limit (maxPackageBytes = ${limits.maxPackageBytes} bytes).`);
  }
  const { files, folder } = stripCommonFolder(raw.filter((f) => !/(^|\/)(\.git|node_modules)\//.test(f.path)));
  const res = readSkillsFromFiles(files, { limits, trustedKeys: opts.trustedKeys, rootName: folder ?? folderHint });
  const diagnostics = [...res.diagnostics, ...pathCollisions(files.map((f) => f.path))];
  let manifest: SkillManifest | null = null;
  if (res.skills.length > 1) {
    diagnostics.push({
      severity: 'error',
      code: 'publish/multiple-skills',
      message: `the upload holds ${res.skills.length} skills (${res.skills.map((s) => s.name).join(', ')}); publish one skill per package`,
    });
  } else if (res.skills.length === 1) {
    manifest = res.skills[0];
    diagnostics.push(...manifest.diagnostics);
  }
  diagnostics.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0));
  return { files, manifest, diagnostics, sizeBytes };
}

/** "SKILL.md:3: error: … [code]" lines for an error message or a terminal. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], max = 20): string {
  const lines = diagnostics.slice(0, max).map((d) => `${d.file ? `${d.file}${d.line ? `:${d.line}` : ''}: ` : ''}${d.severity}: ${d.message} [${d.code}]`);
  if (diagnostics.length > max) lines.push(`… and ${diagnostics.length - max} more`);
  return lines.join('\n');
}
