// readSkillsFromPath: a file, a folder, a tree of many skills, or an archive on disk.
// With `onSkill`, manifests are handed over one by one (the CLI streams them).

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { readArchive } from './archive';
import { DiagnosticSink } from './diagnostic-sink';
import { formatOfSingleFile } from './detect';
import { walkDirectory, readOneFile } from './disk';
import { resolveLimits } from './limits';
import { readSkillsFromFiles, type InputFile, type ReadOptions, type ReadResult } from './read';
import type { Diagnostic, SkillManifest } from './types';

const ARCHIVE = /\.(zip|tgz|tar\.gz|tar)$/i;
const PACKAGE_MARKER = /^(skill\.md|tools\.json)$/i;

export async function readSkillsFromPath(inputPath: string, opts: ReadOptions = {}): Promise<ReadResult> {
  const limits = resolveLimits(opts.limits);
  const sink = new DiagnosticSink();
  let st;
  try {
    st = await fsp.lstat(inputPath);
  } catch (e) {
    sink.error('path/not-found', `${inputPath}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (e as Error).message}`, { file: inputPath });
    return { skills: [], diagnostics: sink.list };
  }
  if (st.isSymbolicLink()) {
    // The path the user named is theirs to name: a link is read as its target (as an
    // agent's skills folder of links is), with a note; below it the walk's rules apply.
    const real = await fsp.realpath(inputPath).catch(() => null);
    const target = await fsp.readlink(inputPath).catch(() => '?');
    if (real === null) {
      sink.error('path/symlink-broken', `${inputPath} is a broken symbolic link: ${target} does not exist`, { file: inputPath });
      return { skills: [], diagnostics: sink.list };
    }
    const res = await readSkillsFromPath(real, { ...opts, rootName: opts.rootName ?? path.basename(inputPath) });
    res.diagnostics.unshift({ severity: 'note', code: 'path/symlink-followed', message: `${inputPath} is a symbolic link to ${target}: read as its target`, file: inputPath });
    return res;
  }

  let root = inputPath;
  if (st.isFile()) {
    const base = path.basename(inputPath);
    if (ARCHIVE.test(base)) return readArchivePath(inputPath, opts, limits);
    // A package's marker file, or a Rye tool file: read the whole package it belongs to.
    const parts = path.resolve(inputPath).split(path.sep);
    const ai = parts.lastIndexOf('.ai');
    if (ai > 0 && parts[ai + 1] === 'tools') root = parts.slice(0, ai).join(path.sep) || path.sep;
    else if (PACKAGE_MARKER.test(base)) root = path.dirname(inputPath);
    else if (formatOfSingleFile(base)) return readSingleFile(inputPath, opts, limits, sink);
    else {
      const f = await readOneFile(inputPath, base, limits);
      return readMapped([f], opts, (p) => path.join(path.dirname(inputPath), p));
    }
    const display = path.relative(process.cwd(), root) || '.';
    return readDir(root, display, opts, limits, sink);
  }
  if (!st.isDirectory()) {
    sink.error('path/unsupported', `${inputPath} is neither a file nor a folder`, { file: inputPath });
    return { skills: [], diagnostics: sink.list };
  }
  return readDir(root, inputPath, opts, limits, sink);
}

async function readDir(dir: string, display: string, opts: ReadOptions, limits: ReturnType<typeof resolveLimits>, sink: DiagnosticSink): Promise<ReadResult> {
  // Prefix the tree with the folder's own name so that SKILL.md name == folder name
  // can be checked when the path is the skill folder itself.
  const prefix = path.basename(path.resolve(dir)) || 'root';
  const files = await walkDirectory(dir, prefix, limits, sink);
  const strip = (p: string) => (p === prefix ? display : p.startsWith(prefix + '/') ? path.join(display, p.slice(prefix.length + 1)) : p);
  const res = readMapped(files, opts, strip);
  res.diagnostics.unshift(...sink.list.map((d) => mapDiagnostic(d, strip)));
  return res;
}

/**
 * A single-file skill's package is its folder (SPEC: a `.skill.md` delegates to files
 * beside it by relative path): the folder is walked (names only) and only this file's
 * skill is reported. When the file belongs to a package there (a SKILL.md beside it) it
 * is read alone, as before.
 */
async function readSingleFile(file: string, opts: ReadOptions, limits: ReturnType<typeof resolveLimits>, sink: DiagnosticSink): Promise<ReadResult> {
  const dir = path.dirname(file);
  const prefix = path.basename(path.resolve(dir)) || 'root';
  const want = `${prefix}/${path.basename(file)}`;
  const files = await walkDirectory(dir, prefix, limits, sink);
  const strip = (p: string) => (p === prefix ? dir : p.startsWith(prefix + '/') ? path.join(dir, p.slice(prefix.length + 1)) : p);
  let found: SkillManifest | null = null;
  readSkillsFromFiles(files, { ...opts, onSkill: (s) => void (s.source === want && (found = s)) });
  if (!found) {
    const f = await readOneFile(file, path.basename(file), limits);
    return readMapped([f], opts, (p) => path.join(dir, p));
  }
  const skill = found as SkillManifest;
  const mapped: SkillManifest = { ...skill, source: strip(skill.source!), diagnostics: skill.diagnostics.map((d) => mapDiagnostic(d, strip)) };
  // problems of the walk itself (unreadable folders) still matter; the rest of the folder does not
  const top = sink.list.map((d) => mapDiagnostic(d, strip));
  if (opts.onSkill) {
    opts.onSkill(mapped);
    return { skills: [], diagnostics: top };
  }
  return { skills: [mapped], diagnostics: top };
}

async function readArchivePath(file: string, opts: ReadOptions, limits: ReturnType<typeof resolveLimits>): Promise<ReadResult> {
  const st = await fsp.stat(file);
  if (st.size > limits.maxArchiveBytes) {
    return { skills: [], diagnostics: [{ severity: 'error', code: 'archive/too-large', message: `${file} is ${st.size} bytes; the limit is ${limits.maxArchiveBytes}`, file }] };
  }
  const bytes = new Uint8Array(await fsp.readFile(file));
  const arch = readArchive(bytes, opts);
  const rootName = opts.rootName ?? path.basename(file).replace(ARCHIVE, '');
  const res = readMapped(arch.files as InputFile[], { ...opts, rootName }, (p) => (p ? `${file}!${p}` : file));
  res.diagnostics.unshift(...arch.diagnostics.map((d) => ({ ...d, file: d.file ? `${file}!${d.file}` : file })));
  return res;
}

/** Read a tree and map every path the caller sees (diagnostics, source) through `fn`. */
function readMapped(files: InputFile[], opts: ReadOptions, fn: (p: string) => string): ReadResult {
  const mapSkill = (s: SkillManifest): SkillManifest => ({ ...s, source: fn(!s.source || s.source === '.' ? '' : s.source) || '.', diagnostics: s.diagnostics.map((d) => mapDiagnostic(d, fn)) });
  const onSkill = opts.onSkill;
  const res = readSkillsFromFiles(files, { ...opts, onSkill: onSkill ? (s) => onSkill(mapSkill(s)) : undefined });
  return { skills: res.skills.map(mapSkill), diagnostics: res.diagnostics.map((d) => mapDiagnostic(d, fn)) };
}

function mapDiagnostic(d: Diagnostic, fn: (p: string) => string): Diagnostic {
  return d.file ? { ...d, file: fn(d.file) } : d;
}
