// Zip and tar(.gz) archives -> in-memory files, with the upload limits enforced while
// decompressing (an archive bomb is stopped at the byte limit, not after it).

import { Gunzip, Inflate } from 'fflate';
import { DiagnosticSink } from './diagnostic-sink';
import { resolveLimits, type ReadLimits } from './limits';
import type { Diagnostic } from './types';
import { crc32, zipEntries, ZipTooManyEntries, type ZipEntry } from './zip-entries';
import { normalizeTreePath, type InputFile } from './read';

export type ArchiveResult = { files: { path: string; content: Uint8Array }[]; diagnostics: Diagnostic[] };

export type ArchiveKind = 'zip' | 'tar.gz' | 'tar' | null;

export function archiveKind(bytes: Uint8Array): ArchiveKind {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return 'zip';
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tar.gz';
  if (bytes.length >= 262 && String.fromCharCode(...bytes.subarray(257, 262)) === 'ustar') return 'tar';
  return null;
}

class Stop extends Error {}

export function readArchive(bytes: Uint8Array, opts: { limits?: Partial<ReadLimits> } = {}): ArchiveResult {
  const limits = resolveLimits(opts.limits);
  const sink = new DiagnosticSink();
  const files: { path: string; content: Uint8Array }[] = [];
  const kind = archiveKind(bytes);
  const state = { total: 0 };
  const accept = (rawName: string, content: Uint8Array | null, type: 'file' | 'dir' | 'link' | 'other'): boolean => {
    if (type === 'dir') return true;
    const name = normalizeTreePath(rawName);
    if (name === null) {
      sink.error('path/outside-package', `archive entry "${rawName.slice(0, 200)}" is absolute or climbs out of the package; skipped`, { file: rawName.slice(0, 200) });
      return true;
    }
    if (type === 'link') {
      sink.error('path/symlink', `archive entry ${name} is a link; links are not allowed`, { file: name });
      return true;
    }
    if (type === 'other') {
      sink.warn('archive/entry-skipped', `archive entry ${name} is not a regular file; skipped`, { file: name });
      return true;
    }
    if (files.length >= limits.maxArchiveFiles) {
      sink.error('archive/too-many-files', `the archive has more than ${limits.maxArchiveFiles} files`);
      throw new Stop();
    }
    files.push({ path: name, content: content ?? new Uint8Array() });
    return true;
  };
  try {
    if (kind === 'zip') readZip(bytes, limits, sink, accept, state);
    else if (kind === 'tar.gz') readTar(gunzipLimited(bytes, limits, sink), sink, accept, limits);
    else if (kind === 'tar') readTar(bytes, sink, accept, limits);
    else sink.error('archive/unsupported', 'not a zip, tar or tar.gz archive');
  } catch (e) {
    if (!(e instanceof Stop)) sink.error('archive/corrupt', `the archive could not be read: ${(e as Error).message}`);
  }
  return { files, diagnostics: sink.list };
}

function gunzipLimited(bytes: Uint8Array, limits: ReadLimits, sink: DiagnosticSink): Uint8Array {
  // tar headers and padding add at most ~1 KB per entry on top of the content
  const max = limits.maxArchiveBytes + (limits.maxArchiveFiles + 2) * 1024 + 10240;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const gz = new Gunzip((chunk) => {
    size += chunk.length;
    if (size > max) {
      sink.error('archive/too-large', `the archive expands to more than ${limits.maxArchiveBytes} bytes (archive bomb?)`);
      throw new Stop();
    }
    chunks.push(chunk);
  });
  const STEP = 16 * 1024;
  for (let off = 0; off < bytes.length; off += STEP) gz.push(bytes.subarray(off, off + STEP), off + STEP >= bytes.length);
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function readZip(bytes: Uint8Array, limits: ReadLimits, sink: DiagnosticSink, accept: (n: string, c: Uint8Array | null, t: 'file' | 'dir' | 'link' | 'other') => boolean, state: { total: number }) {
  // the central directory and the local headers must agree (zip-entries.ts): every entry
  // is read where both say it is, and is a link if either says so
  let entries: ZipEntry[];
  try {
    entries = zipEntries(bytes, limits.maxArchiveFiles * 4);
  } catch (e) {
    if (!(e instanceof ZipTooManyEntries)) throw e;
    sink.error('archive/too-many-files', `the archive has more than ${limits.maxArchiveFiles} files`);
    throw new Stop();
  }
  for (const entry of entries) {
    if (entry.link) {
      accept(entry.name, null, 'link');
      continue;
    }
    if (entry.dir) continue;
    // Large files (fonts, images) are stored, not parsed: only the archive total bounds them.
    if (entry.size > limits.maxArchiveBytes) {
      sink.error('archive/too-large', `${entry.name} is ${entry.size} bytes; the archive limit is ${limits.maxArchiveBytes}`, { file: entry.name });
      throw new Stop();
    }
    accept(entry.name, inflateEntry(bytes, entry, limits, sink, state), 'file');
  }
}

/** One entry's data, bounded by the archive limit while inflating, checked against its size and CRC. */
function inflateEntry(bytes: Uint8Array, entry: ZipEntry, limits: ReadLimits, sink: DiagnosticSink, state: { total: number }): Uint8Array {
  const raw = bytes.subarray(entry.dataStart, entry.dataEnd);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let crc = 0;
  const take = (chunk: Uint8Array) => {
    size += chunk.length;
    state.total += chunk.length;
    if (state.total > limits.maxArchiveBytes) {
      sink.error('archive/too-large', `the archive expands to more than ${limits.maxArchiveBytes} bytes (archive bomb?)`);
      throw new Stop();
    }
    // a size that outgrows the one both headers declare is a lie: stop before holding it
    if (size > entry.size) throw new Error(`${entry.name} inflates past its declared ${entry.size} bytes`);
    crc = crc32(chunk, crc);
    chunks.push(chunk);
  };
  if (entry.method === 0) take(raw.slice());
  else if (entry.method === 8) {
    const inflater = new Inflate((chunk) => take(chunk));
    const STEP = 64 * 1024;
    if (raw.length === 0) inflater.push(raw, true);
    for (let off = 0; off < raw.length; off += STEP) inflater.push(raw.subarray(off, off + STEP), off + STEP >= raw.length);
  } else throw new Error(`${entry.name} uses compression method ${entry.method}; only stored and deflated entries are read`);
  if (size !== entry.size || crc !== entry.crc) throw new Error(`${entry.name} does not match its declared ${size !== entry.size ? 'size' : 'CRC'}`);
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function readTar(bytes: Uint8Array, sink: DiagnosticSink, accept: (n: string, c: Uint8Array | null, t: 'file' | 'dir' | 'link' | 'other') => boolean, limits: ReadLimits) {
  const dec = new TextDecoder();
  const str = (a: number, b: number) => {
    const s = bytes.subarray(a, b);
    const z = s.indexOf(0);
    return dec.decode(z >= 0 ? s.subarray(0, z) : s);
  };
  const octal = (a: number, len: number) => {
    if (bytes[a] & 0x80) {
      // base-256 (GNU) for big sizes
      let v = 0;
      for (let i = 1; i < len; i++) v = v * 256 + bytes[a + i];
      return v;
    }
    const s = str(a, a + len).trim();
    return s ? parseInt(s, 8) : 0;
  };
  let off = 0;
  let longName: string | null = null;
  let paxPath: string | null = null;
  let total = 0;
  while (off + 512 <= bytes.length) {
    const header = bytes.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
    if (sum !== octal(off + 148, 8)) throw new Error(`bad tar header checksum at offset ${off}`);
    const size = octal(off + 124, 12);
    if (!Number.isFinite(size) || size < 0) throw new Error('bad tar entry size');
    const type = String.fromCharCode(header[156] || 48);
    const prefix = str(off + 345, off + 500);
    const baseName = str(off, off + 100);
    const name = paxPath ?? longName ?? (prefix && str(off + 257, off + 262) === 'ustar' ? `${prefix}/${baseName}` : baseName);
    const dataStart = off + 512;
    const dataEnd = dataStart + size;
    if (dataEnd > bytes.length) throw new Error('truncated tar entry');
    off = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = str(dataStart, dataEnd);
      continue;
    }
    if (type === 'x') {
      const pax = dec.decode(bytes.subarray(dataStart, dataEnd));
      const m = /\d+ path=([^\n]*)\n/.exec(pax);
      paxPath = m ? m[1] : null;
      continue;
    }
    if (type === 'g') continue;
    longName = null;
    paxPath = null;
    if (type === '5') accept(name, null, 'dir');
    else if (type === '1' || type === '2') accept(name, null, 'link');
    else if (type === '0' || type === '7') {
      total += size;
      if (total > limits.maxArchiveBytes) {
        sink.error('archive/too-large', `the archive expands to more than ${limits.maxArchiveBytes} bytes`);
        throw new Stop();
      }
      accept(name, bytes.slice(dataStart, dataEnd), 'file');
    } else accept(name, null, 'other');
  }
}

export type { InputFile };
