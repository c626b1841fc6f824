// Walk a folder on disk into an in-memory tree without following links: symlinks are
// recorded (and reported by the reader), never opened; files over the size limit are
// listed but not read.

import { constants, promises as fsp } from 'node:fs';
import path from 'node:path';
import { DiagnosticSink } from './diagnostic-sink';
import type { ReadLimits } from './limits';
import type { InputFile } from './read';

const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);

export async function walkDirectory(dir: string, prefix: string, limits: ReadLimits, sink: DiagnosticSink): Promise<InputFile[]> {
  const out: InputFile[] = [];
  const queue: { abs: string; rel: string; depth: number }[] = [{ abs: dir, rel: prefix, depth: 0 }];
  const files: { abs: string; rel: string }[] = [];
  while (queue.length) {
    const { abs, rel, depth } = queue.shift()!;
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
      if (ent.isSymbolicLink()) out.push({ path: childRel, content: null, size: 0, symlink: true });
      else if (ent.isDirectory()) {
        if (SKIP_DIRS.has(ent.name)) continue;
        if (depth + 1 > limits.maxTreeDepth) {
          sink.error('path/too-deep', `folders nest deeper than ${limits.maxTreeDepth} levels; the rest is skipped`, { file: childRel });
          continue;
        }
        queue.push({ abs: childAbs, rel: childRel, depth: depth + 1 });
      } else if (ent.isFile()) files.push({ abs: childAbs, rel: childRel });
      else sink.warn('path/not-regular-file', `${childRel} is not a regular file (device, socket or pipe); skipped`, { file: childRel });
      if (files.length + out.length > limits.maxTreeFiles) {
        sink.error('path/too-many-files', `more than ${limits.maxTreeFiles} files under ${dir}; the rest is skipped`, { file: prefix || '.' });
        queue.length = 0;
        break;
      }
    }
  }
  // Read with bounded concurrency; O_NOFOLLOW so a file swapped for a link is not followed.
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++];
      out.push(await readOneFile(f.abs, f.rel, limits));
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, files.length) }, worker));
  return out;
}

export async function readOneFile(abs: string, rel: string, limits: ReadLimits): Promise<InputFile> {
  let fh;
  try {
    fh = await fsp.open(abs, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = await fh.stat();
    if (!st.isFile()) return { path: rel, content: null, size: 0, unreadable: 'not a regular file' };
    if (st.size > limits.maxFileBytes) return { path: rel, content: null, size: st.size, tooLarge: true };
    const buf = await fh.readFile();
    return { path: rel, content: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), size: buf.byteLength };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ELOOP') return { path: rel, content: null, size: 0, symlink: true };
    return { path: rel, content: null, size: 0, unreadable: err.code ?? err.message };
  } finally {
    await fh?.close();
  }
}
