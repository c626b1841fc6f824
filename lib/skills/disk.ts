// The one folder walk: a folder on disk -> the reader's in-memory tree. A symlink that
// resolves inside the walked folder is read as its target (the reader adds a note); one
// that leaves it, is broken or loops is recorded and reported by the reader, never opened.
// File contents are read on demand, so only the files a reader parses are loaded and a
// tree of 100,000 files costs names and sizes, not contents.

import { closeSync, constants, fstatSync, openSync, promises as fsp, readSync } from 'node:fs';
import path from 'node:path';
import { DiagnosticSink } from './diagnostic-sink';
import { resolveLimits, type ReadLimits } from './limits';
import type { InputFile, LinkInfo } from './read';
import type { Diagnostic } from './types';

const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export async function walkDirectory(dir: string, prefix: string, limits: ReadLimits, sink: DiagnosticSink): Promise<InputFile[]> {
  const out: InputFile[] = [];
  // A link that resolves inside the walked folder is read as its target (Claude Code
  // follows symlinked skills); one that leaves it, is broken or loops is recorded, never
  // opened. `real` is a folder's resolved path, `chain` the link targets followed above it.
  const rootReal = await fsp.realpath(dir).catch(() => path.resolve(dir));
  const inside = (real: string) => real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
  const queue: { abs: string; rel: string; depth: number; real: string; chain: string[] }[] = [{ abs: dir, rel: prefix, depth: 0, real: rootReal, chain: [] }];
  const files: { abs: string; rel: string; link?: LinkInfo }[] = [];
  let q = 0;
  while (q < queue.length) {
    const { abs, rel, depth, real, chain } = queue[q++];
    let entries;
    try {
      entries = await fsp.readdir(abs, { withFileTypes: true });
    } catch (e) {
      sink.error('file/unreadable', `cannot read folder: ${(e as Error).message}`, { file: rel || '.' });
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of entries) {
      const childRel = rel ? `${rel}/${ent.name}` : ent.name;
      const childAbs = path.join(abs, ent.name);
      if (ent.isSymbolicLink()) {
        const link = await resolveLink(childAbs, inside);
        if (link.state !== 'followed') out.push({ path: childRel, content: null, size: 0, symlink: true, link });
        else if (!link.folder) files.push({ abs: link.real!, rel: childRel, link });
        else if ([real, ...chain].some((r) => r === link.real || r.startsWith(link.real + path.sep))) out.push({ path: childRel, content: null, size: 0, symlink: true, link: { ...link, state: 'loop' } });
        else if (depth + 1 > limits.maxTreeDepth) sink.error('path/too-deep', `folders nest deeper than ${limits.maxTreeDepth} levels; the rest is skipped`, { file: childRel });
        else {
          out.push({ path: childRel, content: null, size: 0, link });
          queue.push({ abs: link.real!, rel: childRel, depth: depth + 1, real: link.real!, chain: [...chain, link.real!] });
        }
      } else if (ent.isDirectory()) {
        if (SKIP_DIRS.has(ent.name)) continue;
        if (depth + 1 > limits.maxTreeDepth) {
          sink.error('path/too-deep', `folders nest deeper than ${limits.maxTreeDepth} levels; the rest is skipped`, { file: childRel });
          continue;
        }
        queue.push({ abs: childAbs, rel: childRel, depth: depth + 1, real: path.join(real, ent.name), chain });
      } else if (ent.isFile()) files.push({ abs: childAbs, rel: childRel });
      else sink.warn('path/not-regular-file', `${childRel} is not a regular file (device, socket or pipe); skipped`, { file: childRel });
      if (files.length + out.length > limits.maxTreeFiles) {
        sink.error('path/too-many-files', `more than ${limits.maxTreeFiles} files under ${dir}; the rest is skipped`, { file: prefix || '.' });
        queue.length = q;
        break;
      }
    }
    queue[q - 1] = undefined as never; // let finished folders go
  }
  // Sizes (for the package limits) with bounded concurrency; contents on demand.
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++];
      try {
        const st = await fsp.lstat(f.abs);
        if (st.isSymbolicLink()) out.push({ path: f.rel, content: null, size: 0, symlink: true });
        else out.push({ path: f.rel, content: null, size: st.size, tooLarge: st.size > limits.maxFileBytes, load: () => readFileNoFollow(f.abs, limits.maxFileBytes), ...(f.link ? { link: f.link } : {}) });
      } catch (e) {
        out.push({ path: f.rel, content: null, size: 0, unreadable: (e as NodeJS.ErrnoException).code ?? (e as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, files.length) }, worker));
  return out;
}

/** Where a link leads: its text, and whether it resolves inside the walked folder. */
async function resolveLink(abs: string, inside: (real: string) => boolean): Promise<LinkInfo> {
  const target = await fsp.readlink(abs).catch(() => '?');
  let real: string;
  try {
    real = await fsp.realpath(abs);
  } catch (e) {
    return { target, state: (e as NodeJS.ErrnoException).code === 'ELOOP' ? 'loop' : 'broken' };
  }
  if (!inside(real)) return { target, state: 'outside' };
  const st = await fsp.stat(real).catch(() => null);
  if (!st) return { target, state: 'broken' };
  if (!st.isFile() && !st.isDirectory()) return { target, state: 'outside' };
  return { target, state: 'followed', folder: st.isDirectory(), real };
}

/**
 * Read one file without following a link (O_NOFOLLOW: a file swapped for a link in
 * between is refused with ELOOP), at most `maxBytes` + 1 bytes (the caller sees it is
 * too large).
 */
export function readFileNoFollow(abs: string, maxBytes: number): Uint8Array {
  const fd = openSync(abs, constants.O_RDONLY | O_NOFOLLOW);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
    const want = Math.min(st.size, maxBytes + 1);
    const buf = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    return new Uint8Array(buf.buffer, buf.byteOffset, got);
  } finally {
    closeSync(fd);
  }
}

/** One file as an input (its content read now, up to the one-file limit). */
export async function readOneFile(abs: string, rel: string, limits: ReadLimits): Promise<InputFile> {
  try {
    const st = await fsp.lstat(abs);
    if (st.isSymbolicLink()) return { path: rel, content: null, size: 0, symlink: true };
    if (!st.isFile()) return { path: rel, content: null, size: 0, unreadable: 'not a regular file' };
    if (st.size > limits.maxFileBytes) return { path: rel, content: null, size: st.size, tooLarge: true };
    const content = readFileNoFollow(abs, limits.maxFileBytes);
    return { path: rel, content, size: content.length };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ELOOP') return { path: rel, content: null, size: 0, symlink: true };
    return { path: rel, content: null, size: 0, unreadable: err.code ?? err.message };
  }
}

export type PackageFolder = { files: { path: string; content: Uint8Array }[]; diagnostics: Diagnostic[] };

/**
 * A package folder with every file's content (to store or publish it): the same walk,
 * the same link rules, and the package limits (files, total bytes) as errors. Files are
 * package-relative. Parsed files still get the one-file limit from the reader.
 */
export async function readPackageFolder(dir: string, opts: { limits?: Partial<ReadLimits> } = {}): Promise<PackageFolder> {
  const limits = resolveLimits(opts.limits);
  const sink = new DiagnosticSink();
  const walked = await walkDirectory(dir, '', { ...limits, maxTreeFiles: limits.maxPackageFiles }, sink);
  const files: { path: string; content: Uint8Array }[] = [];
  let total = 0;
  for (const f of walked.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (f.symlink) continue; // never followed; the reader names it (path/symlink-*)
    if (f.link?.folder) continue; // a followed folder link: its files are listed below it
    if (f.unreadable || !f.load) {
      sink.error('file/unreadable', `${f.path} could not be read: ${f.unreadable ?? 'unknown error'}`, { file: f.path });
      continue;
    }
    total += f.size ?? 0;
    if (total > limits.maxPackageBytes) {
      sink.error('package/too-large', `${dir} is larger than ${limits.maxPackageBytes} bytes`, { file: '.' });
      break;
    }
    try {
      files.push({ path: f.path, content: readFileNoFollow(f.link?.real ?? path.join(dir, f.path), limits.maxPackageBytes) });
    } catch (e) {
      sink.error('file/unreadable', `${f.path} could not be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file: f.path });
    }
  }
  if (files.length > limits.maxPackageFiles) sink.error('package/too-many-files', `${dir} has more than ${limits.maxPackageFiles} files`, { file: '.' });
  return { files, diagnostics: sink.list };
}
